import { GATEWAY_HEADERS } from '@roots/contracts/gateway';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { GatewayError } from '../errors';

const ALLOWED_HEADERS = [
  'authorization',
  'content-type',
  GATEWAY_HEADERS.idempotencyKey,
  GATEWAY_HEADERS.clientVersion,
  GATEWAY_HEADERS.clientType,
  GATEWAY_HEADERS.skyMetadata,
  GATEWAY_HEADERS.requestId,
].join(', ');
const EXPOSED_HEADERS = [GATEWAY_HEADERS.requestId, GATEWAY_HEADERS.idempotentReplayed, 'retry-after'].join(', ');

export type CorsPolicy = {
  /** The gateway's own origin: the only one allowed to post card data to the vault. */
  gatewayOrigin: () => string;
  /** Merchant page origins allowed on the client API, or '*'. */
  merchantOrigins: string[] | '*';
};

/** Which origins a path admits: the vault only its own frames; the client API merchant pages; assets anyone. */
export function corsDecision(path: string, origin: string, policy: CorsPolicy): 'allow' | 'deny' | 'none' {
  if (path.startsWith('/vault/')) return origin === policy.gatewayOrigin() ? 'allow' : 'deny';
  if (path.startsWith('/assets/')) return 'allow';
  if (path.startsWith('/v1/')) {
    if (policy.merchantOrigins === '*' || policy.merchantOrigins.includes(origin) || origin === policy.gatewayOrigin()) return 'allow';
    return 'none';
  }
  return 'none';
}

function allow(reply: FastifyReply, origin: string): void {
  reply.header('access-control-allow-origin', origin);
  reply.header('access-control-expose-headers', EXPOSED_HEADERS);
  reply.header('vary', 'Origin');
}

/**
 * CORS by hand (three small rules, see {@link corsDecision}). A browser request to the vault from
 * any other origin is refused outright with 403, not just left without CORS headers, so a
 * merchant page cannot even send card data.
 */
export function registerCors(app: FastifyInstance, policy: CorsPolicy): void {
  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    if (!origin) return;
    const path = request.url;
    const decision = corsDecision(path, origin, policy);
    if (decision === 'deny') throw new GatewayError('FORBIDDEN', 'Card data is accepted only from the gateway secure fields');
    if (decision === 'none') return;
    allow(reply, origin);
    if (request.method === 'OPTIONS') {
      return reply
        .status(204)
        .header('access-control-allow-methods', 'GET, POST, DELETE, OPTIONS')
        .header('access-control-allow-headers', ALLOWED_HEADERS)
        .header('access-control-max-age', '600')
        .send();
    }
  });
}
