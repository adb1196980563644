import { MESSAGES } from '@roots/contracts';
import {
  cancelByIdRequestSchema,
  cancelLinkDetailsSchema,
  cancelOutcomeSchema,
  cancelRequestSchema,
  okResponseSchema,
} from '@roots/contracts/subscriptions';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors';
import type { EmailRateLimiter } from '../../lib/email-rate-limit';
import type { PurchaseProof } from '../identity/purchase-proof';
import type { MerchantApiBudget } from '../../plugins/merchant-api-budget';
import type { CancellationService } from './cancellation.service';

type CancellationRoutesOptions = {
  service: CancellationService;
  emailLimiter: EmailRateLimiter;
  slug: string;
  proof: PurchaseProof;
  budget: MerchantApiBudget;
};

const linkParams = z.object({ content: z.string().min(10).max(512) });
const linkQuery = z.object({ refund: z.enum(['true', 'false']).optional() });

/** Cancel by email code, by id and by one-click link; activation email (product-spec §4, §7). */
export const cancellationRoutes: FastifyPluginAsyncZod<CancellationRoutesOptions> = async (
  app,
  { service, emailLimiter, slug, proof, budget },
) => {
  app.post('/api/cancel-request', { schema: { body: cancelRequestSchema, response: { 200: cancelOutcomeSchema } } }, async (request) => {
    await emailLimiter.hit(request.body.email);
    return service.request({ email: request.body.email, code: request.body.code });
  });

  // By id: an id alone proves nothing (ADR 085). The buyer's browser or the signed-in owner may
  // cancel; anyone else gets the answer of an unknown id, and nothing changes.
  app.post('/api/cancel', { schema: { body: cancelByIdRequestSchema, response: { 200: cancelOutcomeSchema } } }, async (request) => {
    const row = await service.find(request.body.id);
    if (!row || !(await proof.owns(request, row))) throw new AppError('NOT_FOUND', MESSAGES.noSubscriptions);
    // A refund reaches the gateway: the subscription's own budget, once ownership is proven (ADR 160).
    return service.cancelOwned(row, request.body.refund ?? false, () => budget.owner(row.id));
  });

  app.post(
    '/api/cancel-subscription/:content',
    { schema: { params: linkParams, querystring: linkQuery, response: { 200: cancelOutcomeSchema } } },
    async (request) => service.byLink(request.params.content, request.query.refund === 'true', (row) => budget.owner(row.id)),
  );

  app.get(
    '/api/cancel-subscription/:content/details',
    { schema: { params: linkParams, response: { 200: cancelLinkDetailsSchema } } },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      return service.linkDetails(request.params.content);
    },
  );

  // The link in the emails is opened with a GET, and mail scanners follow links: the GET changes
  // nothing. It shows the web app's confirmation page, whose button POSTs the link (a forged or
  // stale link shows the page that asks by email).
  app.get('/api/cancel-subscription/:content', { schema: { params: linkParams } }, async (request, reply) => {
    const row = await service.fromLink(request.params.content);
    const target = row ? `/${slug}/unsubscription?link=${encodeURIComponent(request.params.content)}` : `/${slug}/unsubscription`;
    return reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').redirect(target, 303);
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
