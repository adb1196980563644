import { cancelByIdRequestSchema, cancelOutcomeSchema, cancelRequestSchema, okResponseSchema } from '@roots/contracts/subscriptions';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors';
import type { EmailRateLimiter } from '../../lib/email-rate-limit';
import type { CancellationService } from './cancellation.service';

type CancellationRoutesOptions = { service: CancellationService; emailLimiter: EmailRateLimiter; slug: string };

const linkParams = z.object({ content: z.string().min(10).max(512) });
const linkQuery = z.object({ refund: z.enum(['true', 'false']).optional() });

/** Cancel by email code, by id and by one-click link; activation email (product-spec §4, §7). */
export const cancellationRoutes: FastifyPluginAsyncZod<CancellationRoutesOptions> = async (app, { service, emailLimiter, slug }) => {
  app.post('/api/cancel-request', { schema: { body: cancelRequestSchema, response: { 200: cancelOutcomeSchema } } }, async (request) => {
    await emailLimiter.hit(request.body.email);
    return service.request({ email: request.body.email, code: request.body.code });
  });

  app.post('/api/cancel', { schema: { body: cancelByIdRequestSchema, response: { 200: cancelOutcomeSchema } } }, async (request) =>
    service.byId(request.body.id, request.body.refund ?? false),
  );

  app.post(
    '/api/cancel-subscription/:content',
    { schema: { params: linkParams, querystring: linkQuery, response: { 200: cancelOutcomeSchema } } },
    async (request) => service.byLink(request.params.content, request.query.refund === 'true'),
  );

  // The link in the emails: one click from a mail client is a GET, so the GET cancels too, then
  // shows the web app's cancel page with the outcome (or without it, to ask again by email).
  app.get('/api/cancel-subscription/:content', { schema: { params: linkParams, querystring: linkQuery } }, async (request, reply) => {
    try {
      await service.byLink(request.params.content, request.query.refund === 'true');
      return reply.header('cache-control', 'no-store').redirect(`/${slug}/unsubscription?canceled=true`, 303);
    } catch (error) {
      if (error instanceof AppError && error.statusCode < 500)
        return reply.header('cache-control', 'no-store').redirect(`/${slug}/unsubscription`, 303);
      throw error;
    }
  });

  app.post(
    '/api/send-activation-by-email/:code/:email',
    {
      schema: {
        params: z.object({ code: z.string().regex(/^[A-Za-z0-9_-]{4,128}$/), email: z.email().max(254) }),
        response: { 200: okResponseSchema },
      },
    },
    async (request) => {
      await emailLimiter.hit(request.params.email);
      await service.sendActivation(request.params.code, request.params.email);
      return { ok: true as const };
    },
  );
};
