import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import { REQUEST_ID_HEADER, runWithRequestId } from './request-context';

/** Latency buckets in seconds: fast JSON answers up to a multi-second analysis. */
const LATENCY_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export type ObservabilityOptions = {
  /** Registry to expose; one per app so tests can build several apps in one process. */
  registry: Registry;
  /** Labelled on every series (`service="server"`). */
  service: string;
  /** Path of the scrape endpoint. Default `/metrics`. */
  path?: string;
  /**
   * Who may scrape (issue 22): `open` (development and tests), a bearer token the scraper must send
   * (`Authorization: Bearer <token>`), or `off` (the endpoint answers 404: production without a token).
   */
  access?: 'open' | 'off' | { token: string };
};

/**
 * The scrape access of a process (issue 22): with a token, only bearers of it; without one, open
 * outside production and absent in production. Server, gateway and analyzer use this one rule.
 */
export function metricsAccess(token: string | undefined, nodeEnv: string): NonNullable<ObservabilityOptions['access']> {
  if (token) return { token };
  return nodeEnv === 'production' ? 'off' : 'open';
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** True when the `authorization` header carries `token` as its bearer (compared in constant time). */
export function hasBearer(header: string | undefined, token: string): boolean {
  const sent = /^Bearer (.+)$/.exec(header ?? '')?.[1];
  return sent !== undefined && timingSafeEqual(digest(sent), digest(token));
}

/** A registry with Node's default process metrics (RSS, event-loop lag, GC) under `service`. */
export function createRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  return registry;
}

/**
 * Adds request metrics and request ids to a Fastify app: `http_request_duration_seconds{method,
 * route,status_code}` (a histogram, so rate and latency per route and status come from one series),
 * the request id echoed in `x-request-id` and kept as the async context of the handler (outgoing
 * calls read it), and `GET /metrics` in the Prometheus text format. Route labels are the route
 * pattern (`/report/get-report`, `/subscriptions/:id`), never the raw URL, so ids and emails in
 * paths do not become series; unmatched URLs count under `route="unmatched"`.
 *
 * Call it on the root instance before routes are registered (Fastify hooks apply to what follows).
 *
 * @example
 * const registry = createRegistry('server');
 * registerObservability(app, { registry, service: 'server' });
 */
export function registerObservability(app: FastifyInstance, { registry, path = '/metrics', access = 'open' }: ObservabilityOptions): void {
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by route pattern, method and status: count and latency in seconds',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: LATENCY_BUCKETS_S,
    registers: [registry],
  });

  app.addHook('onRequest', (request, reply, done) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
    // The rest of the request (and anything it starts) runs with its id as the async context.
    runWithRequestId(request.id, done);
  });
  app.addHook('onResponse', async (request, reply) => {
    if (request.routeOptions.url === path) return;
    duration.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
  if (access === 'off') return;
  app.get(path, async (request, reply) => {
    if (access !== 'open' && !hasBearer(request.headers.authorization, access.token)) {
      return reply.status(401).header('www-authenticate', 'Bearer').send({ error: 'Unauthorized', code: 'UNAUTHORIZED' });
    }
    return reply
      .type(registry.contentType)
      .header('cache-control', 'no-store')
      .send(await registry.metrics());
  });
}
