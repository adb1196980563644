import {
  applePaySessionRequestSchema,
  applePaySessionResponseSchema,
  authorizeRequestSchema,
  binLookupRequestSchema,
  binLookupResultSchema,
  confirmRequestSchema,
  executionSchema,
  googlePayPaymentDataRequestSchema,
  merchantValidationRequestSchema,
  merchantValidationResponseSchema,
  saveInstrumentRequestSchema,
  SANDBOX_VAULT_PROVIDER_CONFIG_ID,
  storedInstrumentListSchema,
  storedInstrumentSchema,
} from '@roots/contracts/gateway';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clientPrincipal as client } from '../../plugins/auth';
import type { ExecutionsService } from '../executions/executions.service';
import { assertReturnInfoAllowed } from '../pages/return-info';
import type { VaultService } from '../vault/vault.service';
import type { WalletsService } from '../wallets/wallets.service';
import type { SessionsService } from './sessions.service';

type ClientRoutesOptions = {
  authenticate: (request: FastifyRequest) => Promise<void>;
  requireIdempotencyKey: preHandlerAsyncHookHandler;
  executions: ExecutionsService;
  vault: VaultService;
  sessions: SessionsService;
  wallets: WalletsService;
  /** The merchant's page origins: the only places `returnInfo` may send the shopper back to. */
  merchantOrigins: string[] | '*';
};

const executionParams = z.object({ id: z.string().min(1).max(64) });

/** The client API the checkout SDK calls with the session's bearer token (checkout-spec §7). Prefix /v1. */
export async function clientRoutes(app: FastifyInstance, options: ClientRoutesOptions): Promise<void> {
  const { executions, vault, sessions, wallets, requireIdempotencyKey } = options;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', options.authenticate);

  routes.get('/executions/:id', { schema: { params: executionParams, response: { 200: executionSchema } } }, async (request) =>
    executions.poll(client(request), request.params.id),
  );

  routes.post(
    '/executions/:id/authorize',
    {
      schema: { params: executionParams, body: authorizeRequestSchema, response: { 200: executionSchema } },
      preHandler: requireIdempotencyKey,
    },
    async (request) => {
      assertReturnInfoAllowed(request.body.returnInfo, options.merchantOrigins);
      return executions.authorize(client(request), request.params.id, request.body, {
        userAgent: request.headers['user-agent'],
        acceptHeader: request.headers.accept,
        ip: request.ip,
      });
    },
  );

  routes.post(
    '/executions/:id/confirm',
    {
      schema: { params: executionParams, body: confirmRequestSchema, response: { 200: executionSchema } },
      preHandler: requireIdempotencyKey,
    },
    async (request) => executions.confirm(client(request), request.params.id, request.body),
  );

  routes.post(
    '/instruments',
    { schema: { body: saveInstrumentRequestSchema, response: { 201: storedInstrumentSchema } }, preHandler: requireIdempotencyKey },
    async (request, reply) =>
      reply.status(201).send(await vault.saveInstrument(client(request), request.body, SANDBOX_VAULT_PROVIDER_CONFIG_ID)),
  );

  routes.get('/instruments', { schema: { response: { 200: storedInstrumentListSchema } } }, async (request) => ({
    items: await vault.listInstruments(client(request).holderReference),
  }));

  // Read-only lookups: no idempotency key needed.
  routes.post('/bin-lookup', { schema: { body: binLookupRequestSchema, response: { 200: binLookupResultSchema } } }, async (request) =>
    vault.binLookup(request.body.bin),
  );

  routes.post(
    '/wallets/apple-pay/session',
    { schema: { body: applePaySessionRequestSchema, response: { 200: applePaySessionResponseSchema } } },
    async (request) => wallets.applePaySession(await sessions.get(client(request).sessionId), request.body),
  );

  routes.post(
    '/wallets/apple-pay/merchant-validation',
    { schema: { body: merchantValidationRequestSchema, response: { 200: merchantValidationResponseSchema } } },
    async (request) => ({ data: wallets.merchantValidation(request.body) }),
  );

  routes.post(
    '/wallets/google-pay/payment-data-request',
    { schema: { response: { 200: googlePayPaymentDataRequestSchema } } },
    async (request) => wallets.googlePayPaymentDataRequest(await sessions.get(client(request).sessionId)),
  );
}
