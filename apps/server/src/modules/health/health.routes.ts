import { healthSchema, readinessSchema } from '@roots/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/database';
import { ERROR_RESPONSES } from '../../plugins/error-responses';

/** Liveness (the process answers) and readiness (the database answers). */
export const healthRoutes: FastifyPluginAsyncZod<{ database: Database }> = async (app, { database }) => {
  app.get('/healthz', { schema: { response: { 200: healthSchema, ...ERROR_RESPONSES } } }, async () => ({ status: 'ok' as const }));

  app.get(
    '/readyz',
    { schema: { response: { 200: readinessSchema, 503: readinessSchema, ...ERROR_RESPONSES } } },
    async (request, reply) => {
      try {
        await database.ping();
        return { status: 'ok' as const, checks: { database: 'ok' as const } };
      } catch (error) {
        request.log.warn({ err: error }, 'readiness: database unreachable');
        return reply.status(503).send({ status: 'unavailable', checks: { database: 'failed' } });
      }
    },
  );
};
