import { MESSAGES } from '@roots/contracts';
import {
  applePayValidateMerchantRequestSchema,
  applePayValidateMerchantResponseSchema,
  createNoUserApplePayRequestSchema,
  createNoUserRequestSchema,
  createSignedInApplePayRequestSchema,
  createSignedInRequestSchema,
  finalizeRequestSchema,
  initSessionRequestSchema,
  initSessionResponseSchema,
  recoverSubscriptionsResponseSchema,
  sessionTokenRequestSchema,
  sessionTokenResponseSchema,
  subscriptionIdResponseSchema,
  type Consent,
} from '@roots/contracts/subscriptions';
import type { Attribution } from '@roots/contracts/events';
import type { FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, type FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors';
import { validationDetails } from '../../plugins/error-handler';
import type { EmailRateLimiter } from '../../lib/email-rate-limit';
import type { SessionReader } from '../auth/session';
import { verifyBuyerIdentity, type IdentityClaim } from '../identity/identity';
import type { RequestMeta, SubscriptionsService } from './subscriptions.service';

type SubscriptionRoutesOptions = { service: SubscriptionsService; emailLimiter: EmailRateLimiter; sessions: SessionReader };

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

/** `/init/session`, `/subs/*`, `/rec/subscriptions/*` (product-spec §7). */
export const subscriptionRoutes: FastifyPluginAsyncZod<SubscriptionRoutesOptions> = async (app, { service, emailLimiter, sessions }) => {
  // Bad bodies answer the spec's message for the endpoint (4xx, VALIDATION_ERROR); the rest goes to the app's handler.
  app.setErrorHandler((error, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply
        .status(400)
        .send({ error: fallbackFor(request.url), code: 'VALIDATION_ERROR', details: validationDetails(error.validation) });
    }
    throw error;
  });

  app.get(
    '/init/session',
    {
      schema: {
        querystring: initSessionRequestSchema.extend({ email: z.email().optional() }),
        response: { 200: initSessionResponseSchema },
      },
    },
    async (request) =>
      service.initSession({ planId: request.query.plan_id, email: request.query.email, paymentMethods: request.query.payment_methods }),
  );
  app.post(
    '/init/session',
    {
      schema: {
        body: initSessionRequestSchema.extend({ email: z.email().optional() }).optional(),
        response: { 200: initSessionResponseSchema },
      },
    },
    async (request) =>
      service.initSession({ planId: request.body?.plan_id, email: request.body?.email, paymentMethods: request.body?.payment_methods }),
  );

  app.post(
    '/init/session/token',
    { schema: { body: sessionTokenRequestSchema, response: { 200: sessionTokenResponseSchema } } },
    async (request) => service.refreshSessionToken(request.body.bearer_token),
  );

  app.post(
    '/api/apple-pay/validate-merchant',
    { schema: { body: applePayValidateMerchantRequestSchema, response: { 200: applePayValidateMerchantResponseSchema } } },
    async (request) => service.validateApplePayMerchant(request.body),
  );

  /** A purchase paid by `executionId`: the same for the four create endpoints, `userId` when signed in. */
  const purchase = (request: FastifyRequest, body: PurchaseBody, executionId: string, userId: string | null) =>
    service.createFromPayment(
      { planId: body.plan_id, email: body.email, executionId, consent: body.consent, attribution: body.attribution, userId },
      requestMeta(request),
    );
  /** `/subs/create` and `/subs/create-applepay`: the buyer must be the signed-in user (ADR 071). */
  const signedInPurchase = async (request: FastifyRequest, body: PurchaseBody & IdentityClaim, executionId: string) => {
    emailLimiter.hit(body.email);
    const identity = await verifyBuyerIdentity(sessions, request, body, MESSAGES.cantCreateSubscription);
    return purchase(request, body, executionId, identity.userId);
  };

  app.post(
    '/subs/create-no-user',
    { schema: { body: createNoUserRequestSchema, response: { 200: subscriptionIdResponseSchema } } },
    async (request) => {
      const body = request.body;
      emailLimiter.hit(body.email);
      if ('subscription_id' in body) {
        return service.createAddOn(
          { planId: body.plan_id, email: body.email, parentId: body.subscription_id, attribution: body.attribution },
          requestMeta(request),
        );
      }
      return purchase(request, body, (body.instrument ?? body.card)?.execution_id ?? '', null);
    },
  );

  app.post(
    '/subs/create-no-user-applepay',
    { schema: { body: createNoUserApplePayRequestSchema, response: { 200: subscriptionIdResponseSchema } } },
    async (request) => {
      emailLimiter.hit(request.body.email);
      return purchase(request, request.body, request.body.execution_id, null);
    },
  );

  app.post(
    '/subs/create',
    { schema: { body: createSignedInRequestSchema, response: { 200: subscriptionIdResponseSchema } } },
    async (request) => signedInPurchase(request, request.body, request.body.card.execution_id),
  );

  app.post(
    '/subs/create-applepay',
    { schema: { body: createSignedInApplePayRequestSchema, response: { 200: subscriptionIdResponseSchema } } },
    async (request) => signedInPurchase(request, request.body, request.body.execution_id),
  );

  app.post(
    '/subs/finalize',
    { schema: { body: finalizeRequestSchema, response: { 200: subscriptionIdResponseSchema } } },
    async (request) => {
      const body = request.body;
      emailLimiter.hit(body.email);
      const identity = await verifyBuyerIdentity(sessions, request, body, MESSAGES.finalizeError);
      return service.finalize(
        { subscriptionId: body.subscription_id, email: body.email, userId: identity.userId, attribution: body.attribution },
        requestMeta(request),
      );
    },
  );

  app.post(
    '/rec/subscriptions/:emailOrId',
    {
      schema: {
        params: z.object({ emailOrId: z.union([z.uuid(), z.email().max(254)]) }),
        response: { 200: recoverSubscriptionsResponseSchema },
      },
    },
    async (request) => {
      emailLimiter.hit(request.params.emailOrId);
      const subscriptions = await service.recover(request.params.emailOrId);
      if (subscriptions.length === 0) throw new AppError('NOT_FOUND', 404, MESSAGES.noSubscriptionData);
      // Anyone can type an email: by email the answer names no payment detail. The subscription id
      // (kept by the buyer's browser after the purchase) is the bearer proof that shows the card's last 4.
      const byEmail = request.params.emailOrId.includes('@');
      return { subscriptions: byEmail ? subscriptions.map((item) => ({ ...item, card_last4: null })) : subscriptions };
    },
  );
};
