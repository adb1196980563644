import type { AnalysisOutcome, FaceBox, FaceCheckOutcome } from '@roots/analysis';
import { FairQueue, screenImage, type FairQueueLimits } from '@roots/analysis/admission';
import {
  ANALYZER_ANALYZE_PATH,
  ANALYZER_CHECK_PATH,
  ANALYZER_CLIENT_HEADER,
  analyzerAnalysisOutcomeSchema,
  analyzerBusySchema,
  analyzerCheckOutcomeSchema,
  analyzerFailureSchema,
} from '@roots/contracts/analyzer';
import { faceBoxFromParam, faceCheckQuerySchema, MAX_SELFIE_BYTES } from '@roots/contracts/face-check';
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

/**
 * What the service runs: the engine's worker pool (or anything with the same two calls). `face` is
 * the face a customer chose in a group photo (query parameter `face`, ADR 192).
 */
export type InferenceEngine = {
  analyze(bytes: Uint8Array, face?: FaceBox): Promise<AnalysisOutcome>;
  check(bytes: Uint8Array, face?: FaceBox): Promise<FaceCheckOutcome>;
};

export type AnalyzerAppOptions = {
  engine: InferenceEngine;
  /**
   * The queue (ADR 165): `concurrency` photos run (the workers), `maxWaiting` more wait, one more
   * answers 503 with `retry-after`; a client (the server's `x-roots-client`, else the caller's
   * address) holding `perClient` places gets 429. Waiting photos start client after client.
   */
  queue: FairQueueLimits;
  logger: FastifyBaseLogger;
  /** The servers' shared secret: analyze and check answer 401 without it (unset: anyone, development only). */
  secret?: string | undefined;
  /** Who may scrape `/metrics` (see registerObservability). */
  metricsAccess?: ObservabilityOptions['access'];
};

/** Seconds a caller should wait after a 503 of a draining analyzer before trying again. */
const DRAINING_RETRY_AFTER_S = 1;
/** What an opaque client key from the server may look like (clientKeyOf: base64url digest). */
const CLIENT_KEY = /^[A-Za-z0-9_-]{8,64}$/;

/**
 * The analysis engine as a stateless HTTP service. The photo is the request body; it lives in this
 * request's memory only (never logged: request logs carry method, URL and id) and is dropped with it.
 * Only JPEG, PNG and WebP of at most 40 MP by their header reach the engine (415 or 422 otherwise,
 * nothing decoded; ADR 164). Back-pressure: a bounded queue with a fair share per client (ADR 165);
 * full, it answers 503 + `retry-after` at once and `/readyz` says not ready (`degraded: ['queue']`);
 * while draining (SIGTERM) it answers 503 too and `/readyz` fails, so a load balancer or the
 * server's client moves on to another analyzer.
 */
export function buildAnalyzerApp({ engine, queue: limits, logger, secret, metricsAccess }: AnalyzerAppOptions) {
  const queue = new FairQueue(limits);
  const capacity = queue.capacity;
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
  new Gauge({
    name: 'analyzer_queue_saturated',
    help: '1 while the analyzer holds as many photos as it may (new ones get 503), else 0',
    registers: [registry],
    collect() {
      this.set(Number(queue.stats().saturated));
    },
  });
  const rejected = new Counter({
    name: 'analyzer_rejected_total',
    help: 'Photos refused because the analyzer was full or shutting down (503) or their client held its share (429), by reason',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const photoRefused = new Counter({
    name: 'analyzer_images_refused_total',
    help: 'Photos refused before decoding: not JPEG, PNG or WebP, or over the size limit, by code',
    labelNames: ['code'] as const,
    registers: [registry],
  });
  const enginePhotos = new Counter({
    name: 'analyzer_engine_photos_total',
    help: 'Photos handed to the engine (each one decoded), by call',
    labelNames: ['call'] as const,
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
    const saturated = queue.stats().saturated;
    const checks = {
      models: ready ? ('ok' as const) : ('failed' as const),
      accepting: draining ? ('failed' as const) : ('ok' as const),
      queue: saturated ? ('failed' as const) : ('ok' as const),
    };
    const degraded = saturated ? { degraded: ['queue'] } : {};
    return ready && !draining && !saturated
      ? { status: 'ok' as const, checks }
      : reply.status(503).send({ status: 'unavailable', checks, ...degraded });
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
    if (draining) {
      rejected.inc({ reason: 'draining' });
      return reply
        .status(503)
        .header('retry-after', String(DRAINING_RETRY_AFTER_S))
        .send({ error: 'The analyzer is shutting down', code: 'SERVICE_UNAVAILABLE' });
    }
    const screened = screenImage(request.body);
    if (!screened.ok) {
      photoRefused.inc({ code: screened.code });
      return reply.status(screened.code === 'UNSUPPORTED_IMAGE_FORMAT' ? 415 : 422).send(screened);
    }
    const admitted = queue.admit(clientOf(request));
    if (!admitted.ok) {
      rejected.inc({ reason: admitted.reason });
      return reply
        .status(admitted.reason === 'full' ? 503 : 429)
        .header('retry-after', String(admitted.retryAfterSeconds))
        .send(
          admitted.reason === 'full'
            ? { error: 'The analyzer is busy', code: 'SERVICE_UNAVAILABLE' }
            : { error: 'This client holds its share of the analyzer', code: 'RATE_LIMITED' },
        );
    }
    held += 1;
    queueDepth.set(held);
    const stopTimer = inferenceSeconds.startTimer({ call });
    const bytes = request.body;
    try {
      const outcome = await admitted.ticket.run(() => {
        enginePhotos.inc({ call });
        return run(bytes);
      });
      stopTimer({ outcome: outcome.ok ? 'ok' : outcome.code });
      if (!outcome.ok && outcome.code === 'INTERNAL') request.log.warn({ cause: outcome.cause }, 'analysis failed');
      return outcome;
    } finally {
      held -= 1;
      queueDepth.set(held);
      if (held === 0) for (const wake of settledWaiters) wake();
    }
  }

  /** The shopper behind the photo as the server names it, else the caller itself. */
  const clientOf = (request: FastifyRequest): string => {
    const named = request.headers[ANALYZER_CLIENT_HEADER];
    return typeof named === 'string' && CLIENT_KEY.test(named) ? `client:${named}` : `address:${request.ip}`;
  };

  const answers = (outcome: z.ZodType) => ({
    querystring: faceCheckQuerySchema,
    response: { 200: outcome, 415: analyzerFailureSchema, 422: analyzerFailureSchema, 429: analyzerBusySchema, 503: analyzerBusySchema },
  });
  /** The chosen face of a group photo, from the query the schema validated. */
  const chosenFace = (query: { face?: string | undefined }): FaceBox | undefined =>
    query.face === undefined ? undefined : faceBoxFromParam(query.face);
  app.post(ANALYZER_ANALYZE_PATH, { schema: answers(analyzerAnalysisOutcomeSchema) }, (request, reply) =>
    infer('analyze', request, reply, (bytes) => engine.analyze(bytes, chosenFace(request.query))),
  );
  app.post(ANALYZER_CHECK_PATH, { schema: answers(analyzerCheckOutcomeSchema) }, (request, reply) =>
    infer('check', request, reply, (bytes) => engine.check(bytes, chosenFace(request.query))),
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
