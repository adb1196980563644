import { createHash, timingSafeEqual } from 'node:crypto';
import { GATEWAY_HEADERS, GATEWAY_UNAUTHORIZED_MESSAGE } from '@roots/contracts/gateway';
import type { FastifyRequest } from 'fastify';
import { GatewayError } from '../errors';
import type { BearerTokens, ClientPrincipal } from '../modules/sessions/bearer-token';

/** Who is calling: the SDK/frames of one session, or the merchant's server. */
export type Principal = ({ kind: 'client' } & ClientPrincipal) | { kind: 'merchant' };

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
}

/** The idempotency and rate-limit scope of a principal. */
export function principalScope(principal: Principal): string {
  return principal.kind === 'merchant' ? 'merchant' : `session:${principal.sessionId}`;
}

/** The calling session of a route behind the client authenticator (a missing one is a wiring bug, hence a 500). */
export function clientPrincipal(request: FastifyRequest): ClientPrincipal {
  const principal = request.principal;
  if (principal?.kind !== 'client') throw new Error(`${request.routeOptions.url ?? request.url}: client route without a client principal`);
  return principal;
}

function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** preHandler factories: attach `request.principal` or answer 401. */
export function authenticators(tokens: BearerTokens, merchantSecret: string) {
  const merchantDigest = digest(merchantSecret);
  return {
    client: async (request: FastifyRequest): Promise<void> => {
      const token = bearerOf(request);
      if (!token) throw new GatewayError('UNAUTHORIZED', GATEWAY_UNAUTHORIZED_MESSAGE);
      request.principal = { kind: 'client', ...(await tokens.verify(token)) };
    },
    merchant: async (request: FastifyRequest): Promise<void> => {
      const key = request.headers[GATEWAY_HEADERS.merchantKey];
      // Comparing digests keeps the comparison constant-time whatever the lengths.
      if (typeof key !== 'string' || !timingSafeEqual(digest(key), merchantDigest)) {
        throw new GatewayError('UNAUTHORIZED', 'Merchant API key is missing or wrong.');
      }
      request.principal = { kind: 'merchant' };
    },
  };
}

/** Rate-limit key: a hash of the bearer token or merchant key, else the client IP. */
export function rateLimitKey(request: FastifyRequest): string {
  const token = bearerOf(request);
  if (token) return `t:${digest(token).toString('base64url')}`;
  const key = request.headers[GATEWAY_HEADERS.merchantKey];
  if (typeof key === 'string') return `m:${digest(key).toString('base64url')}`;
  return `ip:${request.ip}`;
}
