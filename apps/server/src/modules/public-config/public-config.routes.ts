import { publicConfigSchema, type PublicConfig } from '@roots/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ERROR_RESPONSES } from '../../plugins/error-responses';

/** GET /api/config: what the web client may know about this deployment. */
export const publicConfigRoutes: FastifyPluginAsyncZod<{ publicConfig: PublicConfig }> = async (app, { publicConfig }) => {
  app.get('/api/config', { schema: { response: { 200: publicConfigSchema, ...ERROR_RESPONSES } } }, async () => publicConfig);
};
