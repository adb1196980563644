import { API_MESSAGES, MESSAGES, checkoutRefusalSchema } from '@roots/contracts';
import {
  applePayValidateMerchantRequestSchema,
  applePayValidateMerchantResponseSchema,
  createNoUserApplePayRequestSchema,
  createNoUserRequestSchema,
  createSignedInApplePayRequestSchema,
  createSignedInRequestSchema,
  finalizeRequestSchema,
  paymentStatusRequestSchema,
  paymentStatusResponseSchema,
  initSessionRequestSchema,
  initSessionResponseSchema,
  type InitSessionRequest,
  recoverByEmailResponseSchema,
  recoverSubscriptionsResponseSchema,
  sessionTokenRequestSchema,
  entitlementsResponseSchema,
  sessionTokenResponseSchema,
  subscriptionIdResponseSchema,
  type Consent,
} from '@roots/contracts/subscriptions';
import type { Attribution } from '@roots/contracts/events';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, type FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors';
import { validationDetails } from '../../plugins/error-handler';
import type { MerchantApiBudget } from '../../plugins/merchant-api-budget';
import type { EmailRateLimiter } from '../../lib/email-rate-limit';
import type { PurchaseProof } from '../account/purchase-proof';
import type { Entitlements } from '../entitlements/entitlements';
import type { SessionReader, SessionUser } from '../auth/session';
import { verifyBuyerIdentity, type IdentityClaim } from '../identity/identity';
import type { RequestMeta, SubscriptionsService } from './subscriptions.service';

type SubscriptionRoutesOptions = {
  service: SubscriptionsService;
  emailLimiter: EmailRateLimiter;
  sessions: SessionReader;
  proof: PurchaseProof;
  entitlements: Entitlements;
  /** The gateway's merchant quota, spent once a request is valid and proven (ADR 160). */
  budget: MerchantApiBudget;
  /** @throws AppError FORBIDDEN where the geo policy does not offer what the plan includes (issue 24). */
  assertPlanOffered: (request: FastifyRequest, planId: string) => void;
};

/** What every purchase body carries besides its payment reference. */
type PurchaseBody = { plan_id: string; email: string; consent: Consent; attribution?: Attribution | undefined };

function requestMeta(request: FastifyRequest): RequestMeta {
  return { ip: request.ip, userAgent: String(request.headers['user-agent'] ?? '') };
}

/** The spec's fallback message for a failing subscription endpoint (product-spec §8). */
function fallbackFor(url: string): string {
  if (url.startsWith('/subs/finalize')) return MESSAGES.finalizeError;
  if (url.startsWith('/rec/')) return MESSAGES.noSubscriptionData;
  if (url.startsWith('/subs/')) return MESSAGES.cantCreateSubscription;
  return MESSAGES.somethingWentWrong;
}

/**
 * True when `token` may be a bearer token of the gateway's checkout sessions: a JWT whose claims name
 * a session and the SDK's audience, not expired past the gateway's refresh window (a day). Read
 * without the gateway's key: only what surely fails is refused here.
 */
export function mayBeSessionToken(token: string, nowMs: number): boolean {
  const [, payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return false;
  try {
    const claims = z
      .object({ sub: z.string().min(1), aud: z.union([z.literal('roots-gateway-client'), z.array(z.string()).min(1)]), exp: z.number() })
      .parse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
    return claims.exp * 1000 + TOKEN_REFRESH_WINDOW_MS > nowMs;
  } catch {
    return false;
  }
}

/** How long after its expiry the gateway still trades a session token for a fresh one. */
const TOKEN_REFRESH_WINDOW_MS = 24 * 60 * 60 * 1000;

/** `/init/session`, `/subs/*`, `/rec/subscriptions/*` (product-spec §7). */
/**
 * The email a page names when it opens a checkout (kept masked for a declined payment's record, ADR
 * 154): never a reason to refuse the checkout, so anything that is not an address is dropped.
 */
const checkoutEmailSchema = z
  .string()
  .max(320)
  .optional()
  .transform((value) => (value !== undefined && z.email().safeParse(value.trim()).success ? value.trim() : undefined));

export const subscriptionRoutes: FastifyPluginAsyncZod<SubscriptionRoutesOptions> = async (
  app,
  { service, emailLimiter, sessions, proof, entitlements, budget, assertPlanOffered },
) => {
  // Bad bodies answer the spec's message for the endpoint (4xx, VALIDATION_ERROR); the rest goes to the app's handler.
  app.setErrorHandler((error, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply
        .status(400)
        .send({ error: fallbackFor(request.url), code: 'VALIDATION_ERROR', details: validationDetails(error.validation) });
    }
    throw error;
  });

  /**
   * A checkout for a plan (GET and POST `/init/session`): refused where the geo policy does not offer
   * what the plan includes (issue 24) and when the caller owns it already (Back after paying, a
   * second tab; issue 23). Stored cards are listed and paid with only for their signed-in owner: a
   * session's holder is the signed-in user's verified email, never an email a request names (ADR
   * 085); visitors get a fresh anonymous holder. The session is read once. Only a checkout that can
   * open spends the checkout budget (ADR 160).
   */
  const openCheckout = async (
    request: FastifyRequest,
    reply: FastifyReply,
    input: (InitSessionRequest & { email?: string | undefined }) | undefined,
  ) => {
    const planId = input?.plan_id ?? service.defaultPlanId;
    service.assertKnownPlan(planId);
    assertPlanOffered(request, planId);
    const user = await sessions.current(request).catch(() => null);
    await entitlements.assertNotOwned(request, planId, user);
    await budget.checkout(request, reply);
    return service.initSession({
      planId: input?.plan_id,
      holderEmail: user?.emailVerified ? user.email : undefined,
      paymentMethods: input?.payment_methods,
      shopperEmail: input?.email,
    });
  };

  app.get(
    '/init/session',
    {
      schema: {
        querystring: initSessionRequestSchema.extend({ email: checkoutEmailSchema }),
        response: { 200: initSessionResponseSchema, 429: checkoutRefusalSchema },
      },
    },
    async (request, reply) => openCheckout(request, reply, request.query),
  );
  app.post(
    '/init/session',
    {
      schema: {
        body: initSessionRequestSchema.extend({ email: checkoutEmailSchema }).optional(),
        response: { 200: initSessionResponseSchema, 429: checkoutRefusalSchema },
      },
    },
    async (request, reply) => openCheckout(request, reply, request.body),
  );

  app.get('/api/entitlements', { schema: { response: { 200: entitlementsResponseSchema } } }, async (request) => entitlements.of(request));

  app.post(
    '/init/session/token',
    { schema: { body: sessionTokenRequestSchema, response: { 200: sessionTokenResponseSchema, 429: checkoutRefusalSchema } } },
    async (request, reply) => {
      // What cannot be a token of the gateway's sessions costs nothing (ADR 160): the gateway refuses it anyway.
      if (!mayBeSessionToken(request.body.bearer_token, Date.now())) throw new AppError('UNAUTHORIZED', MESSAGES.somethingWentWrong);
      await budget.checkout(request, reply);
      return service.refreshSessionToken(request.body.bearer_token);
    },
  );

  app.post(
    '/api/apple-pay/validate-merchant',
    {
      schema: {
        body: applePayValidateMerchantRequestSchema,
        response: { 200: applePayValidateMerchantResponseSchema, 429: checkoutRefusalSchema },
      },
    },
    async (request, reply) => {
      await budget.checkout(request, reply);
      return service.validateApplePayMerchant(request.body);
    },
  );

  /**
   * A purchase paid by `executionId`: the same for the four create endpoints, `userId` when signed
   * in. The answer gives the buyer's browser its proof of the purchase (ADR 085).
   */
  const purchase = async (
    request: FastifyRequest,
    reply: FastifyReply,
    body: PurchaseBody,
    executionId: string,
    /** The signed-in buyer of `/subs/create*`; undefined for a visitor's purchase (its session, if any, is read for what it owns). */
    buyer?: SessionUser,
  ) => {
    assertPlanOffered(request, body.plan_id);
    // A second payment for a plan this browser or account owns (a second tab whose checkout opened
    // before the first paid) makes no second subscription: it is set aside, the payment sweep refunds
    // it (ADR 127) and emails the owner. A replay of the purchase that made the subscription is
    // answered as before.
    if (!(await service.byPayment(executionId))) {
      const owner = await entitlements.ownerOf(request, body.plan_id, buyer);
      if (owner) {
        await service.setAsidePaidTwice(executionId, body.plan_id, owner);
        throw new AppError('ALREADY_OWNED', API_MESSAGES.alreadyOwnedPaidTwice);
      }
    }
    const userId = buyer?.id ?? null;
    const created = await service.createFromPayment(
      { planId: body.plan_id, email: body.email, executionId, consent: body.consent, attribution: body.attribution, userId },
      requestMeta(request),
      () => budget.execution(request, executionId),
    );
    proof.grant(request, reply, created.id);
    return created;
  };
  /**
   * `/subs/create` and `/subs/create-applepay`: the buyer must be the signed-in user (ADR 071), and
   * the purchase is made under the account's own email whatever the body names (ADR 136): an email
   * typed in a body is a claim, the session is the identity, so a signed-in buyer can never attach
   * a purchase, its receipts or its reports to someone else's address.
   */
  const signedInPurchase = async (
    request: FastifyRequest,
    reply: FastifyReply,
    body: PurchaseBody & IdentityClaim,
    executionId: string,
  ) => {
    const identity = await verifyBuyerIdentity(sessions, request, body, MESSAGES.cantCreateSubscription);
    await emailLimiter.hit(identity.user.email);
    return purchase(request, reply, { ...body, email: identity.user.email }, executionId, identity.user);
  };

  app.post(
    '/subs/create-no-user',
    { schema: { body: createNoUserRequestSchema, response: { 200: subscriptionIdResponseSchema } } },
    async (request, reply) => {
      const body = request.body;
      await emailLimiter.hit(body.email);
      if ('subscription_id' in body) {
        // A one-click add-on charges the parent's stored card: only its buyer's browser or its
        // signed-in owner may ask (ADR 085). Anyone else gets the answer of an unknown id.
        // The row read for this check is the one the service charges against: read once.
        assertPlanOffered(request, body.plan_id);
        const parent = await service.find(body.subscription_id);
        if (!parent || !(await proof.owns(request, parent))) throw new AppError('NOT_FOUND', MESSAGES.noSubscriptionData);
        // The charge of the stored card reaches the gateway: the parent's own budget (ADR 160).
        await budget.owner(parent.id);
        // Never charge for what is owned or included (an Ultimate Pack holds every report); a repeat
        // of an add-on already bought answers it again (idempotent), so it is not refused.
        if (!(await service.boughtAddOn(parent.id, body.plan_id))) await entitlements.assertNotOwned(request, body.plan_id);
        const created = await service.createAddOn(
          { planId: body.plan_id, email: body.email, parent, attribution: body.attribution },
          requestMeta(request),
        );
        proof.grant(request, reply, created.id);
        return created;
      }
      return purchase(request, reply, body, (body.instrument ?? body.card)?.execution_id ?? '');
    },
  );

  app.post(
    '/subs/create-no-user-applepay',
    { schema: { body: createNoUserApplePayRequestSchema, response: { 200: subscriptionIdResponseSchema } } },
    async (request, reply) => {
      await emailLimiter.hit(request.body.email);
      return purchase(request, reply, request.body, request.body.execution_id);
    },
  );

  app.post(
    '/subs/create',
    { schema: { body: createSignedInRequestSchema, response: { 200: subscriptionIdResponseSchema } } },
    async (request, reply) => signedInPurchase(request, reply, request.body, request.body.card.execution_id),
  );

  app.post(
    '/subs/create-applepay',
    { schema: { body: createSignedInApplePayRequestSchema, response: { 200: subscriptionIdResponseSchema } } },
    async (request, reply) => signedInPurchase(request, reply, request.body, request.body.execution_id),
  );

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

  app.post(
    '/subs/finalize',
    { schema: { body: finalizeRequestSchema, response: { 200: subscriptionIdResponseSchema } } },
    async (request) => {
      const body = request.body;
      await emailLimiter.hit(body.email);
      const identity = await verifyBuyerIdentity(sessions, request, body, MESSAGES.finalizeError);
      // Being signed in is not enough: the purchase must be this user's (bought in this browser, or
      // of their verified email). Someone else's unlinked purchase answers as an unknown one. The
      // session and the subscription are each read once, here, and passed on.
      const row = await service.find(body.subscription_id);
      if (!row || !(await proof.owns(request, row, identity.user))) throw new AppError('NOT_FOUND', MESSAGES.finalizeError);
      return service.finalize(row, { email: body.email, userId: identity.userId, attribution: body.attribution }, requestMeta(request));
    },
  );

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
