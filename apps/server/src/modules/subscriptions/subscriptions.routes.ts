import { MESSAGES } from '@roots/contracts';
import {
  finalizeRequestSchema,
  paymentStatusRequestSchema,
  paymentStatusResponseSchema,
  recoverByEmailResponseSchema,
  recoverSubscriptionsResponseSchema,
  finalizeResponseSchema,
  type FinalizeResponse,
} from '@roots/contracts/subscriptions';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors';
import type { EmailRateLimiter } from '../../lib/email-rate-limit';
import { requestMeta } from '../../lib/request-meta';
import type { MerchantApiBudget } from '../../plugins/merchant-api-budget';
import { answerBadBodiesWithSpecFallback } from '../../plugins/spec-fallback';
import type { PurchaseProof } from '../identity/purchase-proof';
import type { SessionReader, SessionUser } from '../auth/session';
import { verifyBuyerIdentity } from '../identity/identity';
import type { SubscriptionsService } from './subscriptions.service';
import type { SubscriptionRow } from './subscriptions.repository';

type SubscriptionRoutesOptions = {
  service: SubscriptionsService;
  emailLimiter: EmailRateLimiter;
  sessions: SessionReader;
  proof: PurchaseProof;
  /** The gateway's merchant quota, spent once a request is valid and proven (ADR 160). */
  budget: MerchantApiBudget;
  /**
   * The claim (ADR 196): once the signed-in owner has linked a purchase, a second live plan of theirs
   * is refunded; says so when the purchase claimed was that second plan.
   */
  settleClaim: (user: SessionUser, claimed: SubscriptionRow) => Promise<FinalizeResponse['refunded_duplicate']>;
};

/** `/subs/payment-status`, `/subs/finalize`, `/rec/subscriptions/*` (product-spec §7); buying is the purchases room's. */
export const subscriptionRoutes: FastifyPluginAsyncZod<SubscriptionRoutesOptions> = async (
  app,
  { service, emailLimiter, sessions, proof, budget, settleClaim },
) => {
  answerBadBodiesWithSpecFallback(app);

  /**
   * The pending page's "check again" (issue 24): where the payment of a purchase already asked for
   * stands, always answered (pending, paid, failed, expired, refunded), never a conflict. Once paid,
   * the browser that asks with the purchase's email gets its proof, as the create call gives it.
   */
  app.post(
    '/subs/payment-status',
    { schema: { body: paymentStatusRequestSchema, response: { 200: paymentStatusResponseSchema } } },
    async (request, reply) => {
      const answer = await service.paymentStatus(request.body.execution_id, request.body.email, () =>
        budget.execution(request, request.body.execution_id),
      );
      if (answer.id) proof.grant(request, reply, answer.id);
      return answer;
    },
  );

  app.post('/subs/finalize', { schema: { body: finalizeRequestSchema, response: { 200: finalizeResponseSchema } } }, async (request) => {
    const body = request.body;
    await emailLimiter.hit(body.email);
    const identity = await verifyBuyerIdentity(sessions, request, body, MESSAGES.finalizeError);
    // Being signed in is not enough: the purchase must be this user's (bought in this browser, or
    // of their verified email). Someone else's unlinked purchase answers as an unknown one. The
    // session and the subscription are each read once, here, and passed on.
    const row = await service.find(body.subscription_id);
    if (!row || !(await proof.owns(request, row, identity.user))) throw new AppError('NOT_FOUND', MESSAGES.finalizeError);
    const linked = await service.finalize(
      row,
      { email: body.email, userId: identity.userId, attribution: body.attribution },
      requestMeta(request),
    );
    const refunded = await settleClaim(identity.user, row);
    return refunded ? { ...linked, refunded_duplicate: refunded } : linked;
  });

  app.post(
    '/rec/subscriptions/:emailOrId',
    {
      schema: {
        params: z.object({ emailOrId: z.union([z.uuid(), z.email().max(254)]) }),
        response: { 200: z.union([recoverSubscriptionsResponseSchema, recoverByEmailResponseSchema]) },
      },
    },
    async (request) => {
      const { emailOrId } = request.params;
      await emailLimiter.hit(emailOrId);
      // By email: the same answer whatever the email bought; the purchases go to that address
      // (ADR 085). An email proves nothing, so it never yields ids, state or payment details.
      if (emailOrId.includes('@')) {
        await service.emailPurchases(emailOrId);
        return { message: MESSAGES.checkYourEmail };
      }
      // By id: the buyer's browser or the signed-in owner; anyone else gets the unknown-id answer.
      const row = await service.find(emailOrId);
      if (!row || !(await proof.owns(request, row))) throw new AppError('NOT_FOUND', MESSAGES.noSubscriptionData);
      return { subscriptions: await service.summaries([row]) };
    },
  );
};
