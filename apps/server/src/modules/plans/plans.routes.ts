import { planCatalogSchema, type PlanCatalog } from '@roots/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ERROR_RESPONSES } from '../../plugins/error-responses';

/** GET /api/plans: the configured plan catalog (product-spec §9). */
export const planRoutes: FastifyPluginAsyncZod<{ catalog: PlanCatalog }> = async (app, { catalog }) => {
  app.get('/api/plans', { schema: { response: { 200: planCatalogSchema, ...ERROR_RESPONSES } } }, async (_request, reply) => {
    void reply.header('cache-control', 'public, max-age=60');
    return catalog;
  });
};
