import { API_MESSAGES, MESSAGES, checkoutRefusalSchema } from '@roots/contracts';
import {
  applePayValidateMerchantRequestSchema,
  applePayValidateMerchantResponseSchema,
  createNoUserApplePayRequestSchema,
  createNoUserRequestSchema,
  createSignedInApplePayRequestSchema,
  createSignedInRequestSchema,
  entitlementsResponseSchema,
  initSessionRequestSchema,
  initSessionResponseSchema,
  type InitSessionRequest,
  sessionTokenRequestSchema,
  sessionTokenResponseSchema,
  subscriptionIdResponseSchema,
  type Consent,
} from '@roots/contracts/subscriptions';
import type { Attribution } from '@roots/contracts/events';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors';
import type { EmailRateLimiter } from '../../lib/email-rate-limit';
import { requestMeta } from '../../lib/request-meta';
import type { MerchantApiBudget } from '../../plugins/merchant-api-budget';
import { answerBadBodiesWithSpecFallback } from '../../plugins/spec-fallback';
import type { PurchaseProof } from '../identity/purchase-proof';
import type { SessionReader, SessionUser } from '../auth/session';
import type { Entitlements } from '../entitlements/entitlements';
import { verifyBuyerIdentity, type IdentityClaim } from '../identity/identity';
import type { AddOnsService } from './add-ons.service';
import type { CheckoutSessions } from './checkout-session.service';
import type { PurchasesService } from './purchases.service';

type PurchaseRoutesOptions = {
  checkout: CheckoutSessions;
  purchases: PurchasesService;
  addOns: AddOnsService;
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

/**
 * True when `token` may be a bearer token of the gateway's checkout sessions: a JWT whose claims name
 * a session and the SDK's audience, not expired past the gateway's refresh window (a day). Read
 * without the gateway's key: only what surely fails is refused here.
 */
function mayBeSessionToken(token: string, nowMs: number): boolean {
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

/**
 * The email a page names when it opens a checkout (kept masked for a declined payment's record, ADR
 * 154): never a reason to refuse the checkout, so anything that is not an address is dropped.
 */
const checkoutEmailSchema = z
  .string()
  .max(320)
  .optional()
  .transform((value) => (value !== undefined && z.email().safeParse(value.trim()).success ? value.trim() : undefined));

/** `/init/session`, `/init/session/token`, Apple Pay's merchant validation, `/subs/create*` (product-spec §7). */
export const purchaseRoutes: FastifyPluginAsyncZod<PurchaseRoutesOptions> = async (
  app,
  { checkout, purchases, addOns, emailLimiter, sessions, proof, entitlements, budget, assertPlanOffered },
) => {
  answerBadBodiesWithSpecFallback(app);

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
    const planId = input?.plan_id ?? checkout.defaultPlanId;
    checkout.assertKnownPlan(planId);
    assertPlanOffered(request, planId);
    const user = await sessions.current(request).catch(() => null);
    await entitlements.assertNotOwned(request, planId, user);
    // A plan beside a live plan is not sold: the account changes it (ADR 196).
    if (await entitlements.livePlanOwner(request, planId, user)) throw new AppError('ALREADY_OWNED', API_MESSAGES.alreadyHavePlan);
    await budget.checkout(request, reply);
    return checkout.initSession({
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
      return checkout.refreshSessionToken(request.body.bearer_token);
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
      return checkout.validateApplePayMerchant(request.body);
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
    // before the first paid) makes no second subscription: it is set aside and refunded at once
    // through the payment sweep's path (ADR 196), and the owner is emailed. A replay of the purchase
    // that made the subscription is answered as before.
    // Another recurring plan beside a live one the request proves is no sale either (ADR 196).
    if (!(await purchases.byPayment(executionId))) {
      const owner =
        (await entitlements.ownerOf(request, body.plan_id, buyer)) ?? (await entitlements.livePlanOwner(request, body.plan_id, buyer));
      if (owner) throw await purchases.setAsidePaidTwice(executionId, body.plan_id, owner, () => budget.execution(request, executionId));
    }
    const userId = buyer?.id ?? null;
    const created = await purchases.createFromPayment(
      {
        planId: body.plan_id,
        email: body.email,
        executionId,
        consent: body.consent,
        attribution: body.attribution,
        userId,
        proofIds: proof.heldSubscriptionIds(request),
      },
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
        const parent = await addOns.parent(body.subscription_id);
        if (!parent || !(await proof.owns(request, parent))) throw new AppError('NOT_FOUND', MESSAGES.noSubscriptionData);
        // The charge of the stored card reaches the gateway: the parent's own budget (ADR 160).
        await budget.owner(parent.id);
        // Never charge for what is owned or included (an Ultimate Pack holds every report); a repeat
        // of an add-on already bought answers it again (idempotent), so it is not refused.
        if (!(await addOns.boughtAddOn(parent.id, body.plan_id))) await entitlements.assertNotOwned(request, body.plan_id);
        const created = await addOns.createAddOn(
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
};
