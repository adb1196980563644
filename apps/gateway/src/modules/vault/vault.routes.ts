import { vaultTokenizeRequestSchema, vaultTokenizeResponseSchema } from '@roots/contracts/gateway';
import { vaultRecordsRequestSchema, vaultRecordsResponseSchema } from '@roots/contracts/gateway-vault-records';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { clientPrincipal } from '../../plugins/auth';
import type { VaultRecordsService } from './vault-records';
import type { VaultService } from './vault.service';

type VaultRoutesOptions = {
  authenticate: (request: FastifyRequest) => Promise<void>;
  requireIdempotencyKey: preHandlerAsyncHookHandler;
  vault: VaultService;
  records: VaultRecordsService;
};

/**
 * The vault (prefix /vault): the only endpoint that ever receives card data, from the
 * gateway-origin secure-field frames (CORS: that origin only, see plugins/cors.ts).
 */
export async function vaultRoutes(app: FastifyInstance, options: VaultRoutesOptions): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', options.authenticate);
  routes.post(
    '/v1/tokens',
    {
      schema: { body: vaultTokenizeRequestSchema, response: { 201: vaultTokenizeResponseSchema } },
      preHandler: options.requireIdempotencyKey,
    },
    async (request, reply) => reply.status(201).send(await options.vault.tokenize(clientPrincipal(request), request.body)),
  );
  // The values of the other collect elements (PIN, inputs, …): tokens per field.
  routes.post(
    '/v1/records',
    {
      schema: { body: vaultRecordsRequestSchema, response: { 201: vaultRecordsResponseSchema } },
      preHandler: options.requireIdempotencyKey,
    },
    async (request, reply) => reply.status(201).send({ records: await options.records.store(clientPrincipal(request), request.body) }),
  );
}
