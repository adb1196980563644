import { cancelByIdRequestSchema, cancelOutcomeSchema, cancelRequestSchema, okResponseSchema } from '@roots/contracts/subscriptions';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors';
import type { EmailRateLimiter } from '../../lib/email-rate-limit';
import type { CancellationService } from './cancellation.service';

type CancellationRoutesOptions = { service: CancellationService; emailLimiter: EmailRateLimiter; productName: string };

const linkParams = z.object({ content: z.string().min(10).max(512) });
const linkQuery = z.object({ refund: z.enum(['true', 'false']).optional() });

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title></head><body style="font-family:sans-serif;max-width:32rem;margin:3rem auto"><h1>${title}</h1><p>${body}</p></body></html>`;

/** Cancel by email code, by id and by one-click link; activation email (product-spec §4, §7). */
export const cancellationRoutes: FastifyPluginAsyncZod<CancellationRoutesOptions> = async (app, { service, emailLimiter, productName }) => {
  app.post('/api/cancel-request', { schema: { body: cancelRequestSchema, response: { 200: cancelOutcomeSchema } } }, async (request) => {
    emailLimiter.hit(request.body.email);
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

  // The link in the emails: one click from a mail client is a GET, so the GET cancels too and answers a page.
  app.get('/api/cancel-subscription/:content', { schema: { params: linkParams, querystring: linkQuery } }, async (request, reply) => {
    try {
      const outcome = await service.byLink(request.params.content, request.query.refund === 'true');
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(page(outcome.message, `You will not be charged again by ${productName}.`));
    } catch (error) {
      if (error instanceof AppError && error.statusCode < 500) {
        return reply
          .status(error.statusCode)
          .type('text/html; charset=utf-8')
          .send(page(error.message, 'Check the link in your email, or ask for a new one.'));
      }
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
      emailLimiter.hit(request.params.email);
      await service.sendActivation(request.params.code, request.params.email);
      return { ok: true as const };
    },
  );
};
