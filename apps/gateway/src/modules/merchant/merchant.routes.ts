import {
  createSessionRequestSchema,
  createSessionResponseSchema,
  disputeDecisionRequestSchema,
  disputeEvidenceRequestSchema,
  disputeSchema,
  executionListQuerySchema,
  executionListSchema,
  executionSchema,
  GATEWAY_HEADERS,
  merchantChargeRequestSchema,
  merchantRefundRequestSchema,
  merchantValidationRequestSchema,
  merchantValidationResponseSchema,
  refreshSessionTokenRequestSchema,
  refreshSessionTokenResponseSchema,
  refundSchema,
  storedInstrumentListSchema,
  storedInstrumentSchema,
} from '@roots/contracts/gateway';
import { merchantVaultRecordSchema } from '@roots/contracts/gateway-vault-records';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { DisputesService } from '../disputes/disputes.service';
import type { ExecutionsService } from '../executions/executions.service';
import type { SessionsService } from '../checkout/sessions.service';
import { GatewayError } from '../../errors';
import type { VaultRecordsService } from '../vault/vault-records';
import type { VaultService } from '../vault/vault.service';
import type { WalletsService } from '../wallets/wallets.service';

type MerchantRoutesOptions = {
  authenticate: (request: FastifyRequest) => Promise<void>;
  requireIdempotencyKey: preHandlerAsyncHookHandler;
  sessions: SessionsService;
  executions: ExecutionsService;
  disputes: DisputesService;
  vault: VaultService;
  wallets: WalletsService;
  records: VaultRecordsService;
};

const idParams = z.object({ id: z.string().min(1).max(64) });

/** The merchant API (prefix /merchant/v1): server-to-server with `x-api-key`; never called from a browser. */
export async function merchantRoutes(app: FastifyInstance, options: MerchantRoutesOptions): Promise<void> {
  const { sessions, executions, vault, wallets, requireIdempotencyKey } = options;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', options.authenticate);

  routes.post(
    '/sessions',
    { schema: { body: createSessionRequestSchema, response: { 201: createSessionResponseSchema } }, preHandler: requireIdempotencyKey },
    async (request, reply) => reply.status(201).send(await sessions.create(request.body)),
  );

  // A fresh bearer token of the same session: what the merchant's getBearerToken callback asks for.
  routes.post(
    '/sessions/token',
    { schema: { body: refreshSessionTokenRequestSchema, response: { 200: refreshSessionTokenResponseSchema } } },
    async (request) => sessions.refreshToken(request.body.bearerToken),
  );

  // The sweep's listing (ADR 127): executions changed since a time, oldest change first, paginated.
  routes.get(
    '/executions',
    { schema: { querystring: executionListQuerySchema, response: { 200: executionListSchema } } },
    async (request) => executions.listForMerchant(request.query),
  );

  routes.get('/executions/:id', { schema: { params: idParams, response: { 200: executionSchema } } }, async (request) =>
    executions.getForMerchant(request.params.id),
  );

  routes.post(
    '/charges',
    { schema: { body: merchantChargeRequestSchema, response: { 201: executionSchema } }, preHandler: requireIdempotencyKey },
    async (request, reply) => {
      const key = request.headers[GATEWAY_HEADERS.idempotencyKey];
      return reply.status(201).send(await executions.charge(request.body, { idempotencyKey: typeof key === 'string' ? key : undefined }));
    },
  );

  routes.post(
    '/executions/:id/refunds',
    {
      schema: {
        params: idParams,
        body: merchantRefundRequestSchema,
        response: { 201: z.object({ refund: refundSchema, execution: executionSchema }) },
      },
      preHandler: requireIdempotencyKey,
    },
    async (request, reply) => reply.status(201).send(await executions.refund(request.params.id, request.body)),
  );

  // Disputes (ADR 181): read, answer with evidence, accept; the sandbox bank's decision.
  routes.get('/disputes/:id', { schema: { params: idParams, response: { 200: disputeSchema } } }, async (request) =>
    options.disputes.get(request.params.id),
  );

  routes.post(
    '/disputes/:id/evidence',
    {
      schema: { params: idParams, body: disputeEvidenceRequestSchema, response: { 200: disputeSchema } },
      preHandler: requireIdempotencyKey,
    },
    async (request) => options.disputes.submitEvidence(request.params.id, request.body),
  );

  routes.post(
    '/disputes/:id/accept',
    { schema: { params: idParams, response: { 200: disputeSchema } }, preHandler: requireIdempotencyKey },
    async (request) => options.disputes.accept(request.params.id),
  );

  routes.post(
    '/disputes/:id/decision',
    {
      schema: { params: idParams, body: disputeDecisionRequestSchema, response: { 200: disputeSchema } },
      preHandler: requireIdempotencyKey,
    },
    async (request) => options.disputes.decide(request.params.id, request.body),
  );

  routes.get(
    '/holders/:holderReference/instruments',
    { schema: { params: z.object({ holderReference: z.string().min(1).max(200) }), response: { 200: storedInstrumentListSchema } } },
    async (request) => ({ items: await vault.listInstruments(request.params.holderReference) }),
  );

  routes.delete(
    '/instruments/:id',
    {
      schema: {
        params: idParams,
        querystring: z.object({ holderReference: z.string().min(1).max(200) }),
        response: { 200: storedInstrumentSchema },
      },
      preHandler: requireIdempotencyKey,
    },
    async (request) => vault.deleteInstrument(request.query.holderReference, request.params.id),
  );

  routes.post(
    '/wallets/apple-pay/merchant-validation',
    { schema: { body: merchantValidationRequestSchema, response: { 200: merchantValidationResponseSchema } } },
    async (request) => ({ data: wallets.merchantValidation(request.body) }),
  );

  // Detokenize: the merchant's server reads a record the shopper's collect stored (never the browser).
  routes.get(
    '/records/:id',
    {
      schema: {
        params: idParams,
        querystring: z.object({ holderReference: z.string().min(1).max(200) }),
        response: { 200: merchantVaultRecordSchema },
      },
    },
    async (request) => {
      const record = await options.records.reveal(request.params.id);
      if (!record || record.holderReference !== request.query.holderReference) throw new GatewayError('NOT_FOUND', 'Record not found');
      return { skyflowID: request.params.id, table: record.table, fields: record.fields };
    },
  );
}
