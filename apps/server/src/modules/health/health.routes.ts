import { healthSchema, readinessSchema } from '@roots/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/database';
import { ERROR_RESPONSES } from '../../plugins/error-responses';

/**
 * Liveness (the process answers) and readiness (the database answers). A full analysis queue keeps
 * the server ready (checkout and accounts still work) and is listed under `degraded` (ADR 165);
 * liveness never depends on load.
 */
export const healthRoutes: FastifyPluginAsyncZod<{ database: Database; analysisSaturated: () => boolean }> = async (
  app,
  { database, analysisSaturated },
) => {
  app.get('/healthz', { schema: { response: { 200: healthSchema, ...ERROR_RESPONSES } } }, async () => ({ status: 'ok' as const }));

  app.get(
    '/readyz',
    { schema: { response: { 200: readinessSchema, 503: readinessSchema, ...ERROR_RESPONSES } } },
    async (request, reply) => {
      try {
        await database.ping();
        const degraded = analysisSaturated() ? ['analysis_queue'] : [];
        return { status: 'ok' as const, checks: { database: 'ok' as const }, ...(degraded.length > 0 ? { degraded } : {}) };
      } catch (error) {
        request.log.warn({ err: error }, 'readiness: database unreachable');
        return reply.status(503).send({ status: 'unavailable', checks: { database: 'failed' } });
      }
    },
  );
};
