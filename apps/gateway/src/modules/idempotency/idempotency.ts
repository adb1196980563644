import { GATEWAY_HEADERS } from '@roots/contracts/gateway';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError } from '../../errors';
import { principalScope } from '../../plugins/auth';
import type { IdempotencyRepository } from './idempotency.repository';

/** An in-progress record older than this is considered abandoned (its request died mid-way). */
export const IDEMPOTENCY_STALE_AFTER_MS = 60_000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export type IdempotencyDecision = { kind: 'proceed' } | { kind: 'replay'; statusCode: number; body: string };

/**
 * Idempotency keys: the first answer (any status below 500) for a (credential scope, key) is
 * stored and replayed for every repeat; the same key with a different request is refused (422);
 * a repeat while the first still runs gets 409. 5xx answers are forgotten so a retry can succeed.
 */
export class Idempotency {
  constructor(
    private readonly repository: IdempotencyRepository,
    /** Keyed hash: request bodies may hold card data, so only an HMAC of them is kept. */
    private readonly hash: (value: string) => string,
  ) {}

  fingerprint(request: { method: string; route: string; params: unknown; body: unknown }): string {
    return this.hash(JSON.stringify([request.method, request.route, request.params ?? null, request.body ?? null]));
  }

  async begin(scope: string, key: string, requestHash: string, now = new Date()): Promise<IdempotencyDecision> {
    if (await this.repository.claim(scope, key, requestHash)) return { kind: 'proceed' };
    const existing = await this.repository.find(scope, key);
    if (!existing) return this.begin(scope, key, requestHash, now);
    if (existing.statusCode === null || existing.responseBody === null) {
      const staleBefore = new Date(now.getTime() - IDEMPOTENCY_STALE_AFTER_MS);
      if (await this.repository.takeOverStale(scope, key, requestHash, staleBefore)) return { kind: 'proceed' };
      throw new GatewayError('IDEMPOTENCY_REQUEST_IN_PROGRESS', 'A request with this idempotency key is still in progress');
    }
    if (existing.requestHash !== requestHash) {
      throw new GatewayError('IDEMPOTENCY_KEY_REUSED', 'This idempotency key was already used for a different request');
    }
    return { kind: 'replay', statusCode: existing.statusCode, body: existing.responseBody };
  }

  async finish(scope: string, key: string, statusCode: number, body: string): Promise<void> {
    if (statusCode >= 500) await this.repository.remove(scope, key);
    else await this.repository.complete(scope, key, statusCode, body);
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: { scope: string; key: string };
  }
}

/** The key of a request, or 400 IDEMPOTENCY_KEY_REQUIRED. */
export function idempotencyKeyOf(request: FastifyRequest): string {
  const key = request.headers[GATEWAY_HEADERS.idempotencyKey];
  if (typeof key !== 'string' || key.length === 0) {
    throw new GatewayError('IDEMPOTENCY_KEY_REQUIRED', `The ${GATEWAY_HEADERS.idempotencyKey} header is required on this call`);
  }
  if (!KEY_PATTERN.test(key))
    throw new GatewayError('BAD_REQUEST', `The ${GATEWAY_HEADERS.idempotencyKey} header must be 1-255 visible ASCII characters`);
  return key;
}

/**
 * Registers the onSend hook that stores answers, and returns the preHandler that mutating routes
 * add after authentication.
 */
export function registerIdempotency(app: FastifyInstance, idempotency: Idempotency) {
  app.addHook('onSend', async (request, reply, payload) => {
    const context = request.idempotency;
    if (!context) return payload;
    request.idempotency = undefined;
    await idempotency.finish(context.scope, context.key, reply.statusCode, typeof payload === 'string' ? payload : '');
    return payload;
  });

  return async function requireIdempotencyKey(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | void> {
    const key = idempotencyKeyOf(request);
    if (!request.principal) throw new Error('idempotency needs an authenticated principal');
    const scope = principalScope(request.principal);
    const decision = await idempotency.begin(
      scope,
      key,
      idempotency.fingerprint({
        method: request.method,
        route: request.routeOptions.url ?? request.url,
        params: request.params,
        body: request.body,
      }),
    );
    if (decision.kind === 'replay') {
      return reply
        .code(decision.statusCode)
        .header(GATEWAY_HEADERS.idempotentReplayed, 'true')
        .header('content-type', 'application/json; charset=utf-8')
        .send(decision.body);
    }
    request.idempotency = { scope, key };
  };
}
