import type { AnalysisOutcome, FaceCheckOutcome } from '@roots/analysis';
import {
  ANALYZER_ANALYZE_PATH,
  ANALYZER_CHECK_PATH,
  analyzerAnalysisOutcomeSchema,
  analyzerBusySchema,
  analyzerCheckOutcomeSchema,
  analyzerFailureSchema,
} from '@roots/contracts/analyzer';
import { MAX_SELFIE_BYTES } from '@roots/contracts/face-check';
import { healthSchema, readinessSchema } from '@roots/contracts';
import {
  Counter,
  createRegistry,
  Gauge,
  hasBearer,
  Histogram,
  registerObservability,
  requestIdFrom,
  type ObservabilityOptions,
} from '@roots/observability';
import Fastify, { type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';

/** What the service runs: the engine's worker pool (or anything with the same two calls). */
export type InferenceEngine = {
  analyze(bytes: Uint8Array): Promise<AnalysisOutcome>;
  check(bytes: Uint8Array): Promise<FaceCheckOutcome>;
};

export type AnalyzerAppOptions = {
  engine: InferenceEngine;
  /** Photos held at once (running + waiting); one more answers 503 with `retry-after`. */
  capacity: number;
  logger: FastifyBaseLogger;
  /** The servers' shared secret: analyze and check answer 401 without it (unset: anyone, development only). */
  secret?: string | undefined;
  /** Who may scrape `/metrics` (see registerObservability). */
  metricsAccess?: ObservabilityOptions['access'];
};

/** Seconds a caller should wait after a 503 before trying this analyzer again. */
const RETRY_AFTER_S = 1;

/**
 * The analysis engine as a stateless HTTP service. The photo is the request body; it lives in this
 * request's memory only (never logged: request logs carry method, URL and id) and is dropped with it.
 * Back-pressure: past `capacity` photos in memory it answers 503 + `retry-after` at once instead of
 * queueing without bound; while draining (SIGTERM) it answers 503 too and `/readyz` fails, so a load
 * balancer or the server's client moves on to another analyzer.
 */
export function buildAnalyzerApp({ engine, capacity, logger, secret, metricsAccess }: AnalyzerAppOptions) {
  const app = Fastify({ loggerInstance: logger, genReqId: requestIdFrom, bodyLimit: MAX_SELFIE_BYTES }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const registry = createRegistry('analyzer');
  registerObservability(app, { registry, service: 'analyzer', access: metricsAccess ?? 'open' });
  // Only the servers may analyze: they send the shared secret (issue 22).
  if (secret !== undefined) {
    app.addHook('onRequest', async (request, reply) => {
      const path = request.url.split('?')[0];
      if ((path === ANALYZER_ANALYZE_PATH || path === ANALYZER_CHECK_PATH) && !hasBearer(request.headers.authorization, secret)) {
        return reply.status(401).header('www-authenticate', 'Bearer').send({ error: 'Unauthorized', code: 'UNAUTHORIZED' });
      }
    });
  }
  const queueDepth = new Gauge({
    name: 'analyzer_queue_depth',
    help: 'Photos held by the analyzer (running or waiting)',
    registers: [registry],
  });
  new Gauge({
    name: 'analyzer_queue_capacity',
    help: 'Photos the analyzer holds at most (running or waiting) before it answers 503',
    registers: [registry],
  }).set(capacity);
  const rejected = new Counter({
    name: 'analyzer_rejected_total',
    help: 'Photos refused with 503 because the analyzer was full or shutting down, by reason',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const inferenceSeconds = new Histogram({
    name: 'analyzer_inference_seconds',
    help: 'Time from accepting a photo to its outcome, by call and outcome code',
    labelNames: ['call', 'outcome'] as const,
    buckets: [0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30],
    registers: [registry],
  });

  let held = 0;
  let ready = false;
  let draining = false;
  const settledWaiters = new Set<() => void>();

  app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer', bodyLimit: MAX_SELFIE_BYTES }, (_request, body, done) =>
    done(null, body),
  );

  app.get('/healthz', { schema: { response: { 200: healthSchema } } }, async () => ({ status: 'ok' as const }));
  app.get('/readyz', { schema: { response: { 200: readinessSchema, 503: readinessSchema } } }, async (_request, reply) => {
    const checks = { models: ready ? ('ok' as const) : ('failed' as const), accepting: draining ? ('failed' as const) : ('ok' as const) };
    return ready && !draining ? { status: 'ok' as const, checks } : reply.status(503).send({ status: 'unavailable', checks });
  });

  /** Runs one photo through `run` under the back-pressure rule, timing it by call and outcome. */
  async function infer<T extends AnalysisOutcome | FaceCheckOutcome>(
    call: 'analyze' | 'check',
    request: FastifyRequest,
    reply: FastifyReply,
    run: (bytes: Buffer) => Promise<T>,
  ): Promise<T | FastifyReply> {
    if (!Buffer.isBuffer(request.body)) {
      return reply.status(415).send({ ok: false, code: 'NOT_AN_IMAGE', cause: 'send the photo as application/octet-stream' });
    }
    if (draining || held >= capacity) {
      rejected.inc({ reason: draining ? 'draining' : 'full' });
      return reply
        .status(503)
        .header('retry-after', String(RETRY_AFTER_S))
        .send({ error: draining ? 'The analyzer is shutting down' : 'The analyzer is busy', code: 'SERVICE_UNAVAILABLE' });
    }
    held += 1;
    queueDepth.set(held);
    const stopTimer = inferenceSeconds.startTimer({ call });
    try {
      const outcome = await run(request.body);
      stopTimer({ outcome: outcome.ok ? 'ok' : outcome.code });
      if (!outcome.ok && outcome.code === 'INTERNAL') request.log.warn({ cause: outcome.cause }, 'analysis failed');
      return outcome;
    } finally {
      held -= 1;
      queueDepth.set(held);
      if (held === 0) for (const wake of settledWaiters) wake();
    }
  }

  const answers = (outcome: z.ZodType) => ({ response: { 200: outcome, 415: analyzerFailureSchema, 503: analyzerBusySchema } });
  app.post(ANALYZER_ANALYZE_PATH, { schema: answers(analyzerAnalysisOutcomeSchema) }, (request, reply) =>
    infer('analyze', request, reply, (bytes) => engine.analyze(bytes)),
  );
  app.post(ANALYZER_CHECK_PATH, { schema: answers(analyzerCheckOutcomeSchema) }, (request, reply) =>
    infer('check', request, reply, (bytes) => engine.check(bytes)),
  );

  return Object.assign(app, {
    analyzer: {
      /** Marks the models loaded: `/readyz` answers 200 from now on. */
      markReady(): void {
        ready = true;
      },
      /** Stops taking photos (503) and resolves once every photo in hand has its answer. */
      async drain(): Promise<void> {
        draining = true;
        if (held === 0) return;
        await new Promise<void>((resolve) => {
          const wake = () => {
            settledWaiters.delete(wake);
            resolve();
          };
          settledWaiters.add(wake);
        });
      },
      held: () => held,
    },
  });
}
