import { planChangeCanceledSchema, planChangeRequestSchema, planChangeResponseSchema } from '@roots/contracts/account';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requestMeta } from '../../lib/request-meta';
import type { SessionReader } from '../auth/session';
import type { PlanChangeService } from './plan-change.service';

/** `/api/account/subscriptions/{id}/plan-change` (ADR 196): the signed-in owner only; anyone else's id answers 404. */
export const planChangeRoutes: FastifyPluginAsyncZod<{ service: PlanChangeService; sessions: SessionReader }> = async (
  app,
  { service, sessions },
) => {
  app.post(
    '/api/account/subscriptions/:id/plan-change',
    { schema: { params: z.object({ id: z.uuid() }), body: planChangeRequestSchema, response: { 200: planChangeResponseSchema } } },
    async (request) => ({
      plan_change: await service.request(await sessions.require(request), request.params.id, request.body.plan_id, requestMeta(request)),
    }),
  );

  app.delete(
    '/api/account/subscriptions/:id/plan-change',
    { schema: { params: z.object({ id: z.uuid() }), response: { 200: planChangeCanceledSchema } } },
    async (request) => ({ canceled: await service.cancel(await sessions.require(request), request.params.id) }),
  );
};
