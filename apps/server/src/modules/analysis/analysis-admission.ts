import { createHash } from 'node:crypto';
import type { AnalysisOutcome, FaceBox, FaceCheckOutcome } from '@roots/analysis';
import {
  FairQueue,
  screenImage,
  type AnalysisError,
  type FairQueueLimits,
  type QueueStats,
  type ScreenedImage,
} from '@roots/analysis/admission';
import { ANALYSIS_ERROR_MESSAGES, API_MESSAGES, type ApiErrorCode } from '@roots/contracts';
import { Counter, Gauge, type Registry } from '@roots/observability';
import { AppError } from '../../errors';
import type { AnalysisEngine } from './analysis-engine';

/** A photo refused before it reached the engine: by its format or declared size, or because the queue had no room. */
export type Refused =
  { refused: 'photo'; outcome: AnalysisError } | { refused: 'queue'; reason: 'full' | 'share'; retryAfterSeconds: number };

/**
 * A photo that was screened and holds a place in the queue; `check` and `analyze` wait for its turn.
 * `face`: the face the customer chose in a group photo (ADR 192).
 */
export type AdmittedPhoto = {
  check(face?: FaceBox): Promise<FaceCheckOutcome>;
  analyze(face?: FaceBox): Promise<AnalysisOutcome>;
  /** Gives the place back unused (the request failed before the analysis started). */
  cancel(): void;
};

export type AnalysisAdmission = {
  /** Screens the photo (format and declared size, nothing decoded), then takes a place for `client`. */
  admit(bytes: Uint8Array, client: string): AdmittedPhoto | Refused;
  stats(): QueueStats;
};

/** HTTP status of a photo refused before decoding: 415 for a format we do not read, else 422. */
export function refusedPhotoStatus(code: AnalysisError['code']): 415 | 422 {
  return code === 'UNSUPPORTED_IMAGE_FORMAT' ? 415 : 422;
}

/**
 * The error a JSON endpoint (report/create) answers for a refusal: 415, 413 or 422 with the photo's
 * message; 503 (queue full) or 429 (share used) with `retry-after`.
 */
export function refusalError(refusal: Refused): AppError {
  if (refusal.refused === 'queue') {
    return refusal.reason === 'full'
      ? new AppError('SERVICE_UNAVAILABLE', API_MESSAGES.analysisBusy, { retryAfterSeconds: refusal.retryAfterSeconds })
      : new AppError('RATE_LIMITED', API_MESSAGES.analysisShareUsed, { retryAfterSeconds: refusal.retryAfterSeconds });
  }
  const { code } = refusal.outcome;
  const apiCode: ApiErrorCode =
    code === 'UNSUPPORTED_IMAGE_FORMAT' ? 'UNSUPPORTED_MEDIA_TYPE' : code === 'IMAGE_TOO_LARGE' ? 'PAYLOAD_TOO_LARGE' : 'UNPROCESSABLE';
  return new AppError(apiCode, ANALYSIS_ERROR_MESSAGES[code]);
}

/**
 * The client key the analyzers see (`x-roots-client`): a digest of the address, so that their fair
 * share follows the shopper and not the server, without the analyzers learning the address.
 */
export function clientKeyOf(address: string): string {
  return createHash('sha256').update(`roots-analysis-client:${address}`).digest('base64url').slice(0, 22);
}

/**
 * Every photo this process analyses, from the face check and the reports, passes here (ADR 164,
 * ADR 165): refused undecoded unless it is a JPEG, PNG or WebP of at most 40 MP by its header, then
 * held in one bounded queue with a fair share per client address, run round-robin between clients.
 * Metrics: `analysis_queue_*` (running, waiting, capacity, saturated, refused by reason),
 * `analysis_images_refused_total{code}` and `analysis_engine_photos_total{call}` (photos handed to
 * the engine, i.e. decoded).
 */
export function createAnalysisAdmission(engine: AnalysisEngine, limits: FairQueueLimits, registry: Registry): AnalysisAdmission {
  const queue = new FairQueue(limits);
  const gauge = (name: string, help: string, read: (stats: QueueStats) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read(queue.stats()));
      },
    });
  gauge('analysis_queue_running', 'Photos being analysed by this process now (face checks and reports)', (stats) => stats.running);
  gauge('analysis_queue_waiting', 'Photos admitted and waiting for their turn', (stats) => stats.waiting);
  gauge(
    'analysis_queue_capacity',
    'Photos this process holds at most, running or waiting, before it answers 503',
    (stats) => stats.capacity,
  );
  gauge('analysis_queue_saturated', '1 while the analysis queue is full (new photos get 503), else 0', (stats) => Number(stats.saturated));
  const queueRefused = new Counter({
    name: 'analysis_queue_refused_total',
    help: 'Photos refused because the queue was full (503) or their client held its share (429)',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const photoRefused = new Counter({
    name: 'analysis_images_refused_total',
    help: 'Photos refused before decoding: not JPEG, PNG or WebP, or over the size limit, by code',
    labelNames: ['code'] as const,
    registers: [registry],
  });
  const enginePhotos = new Counter({
    name: 'analysis_engine_photos_total',
    help: 'Photos handed to the analysis engine (each one decoded), by call',
    labelNames: ['call'] as const,
    registers: [registry],
  });

  return {
    stats: () => queue.stats(),
    admit(bytes, client) {
      const screened: ScreenedImage | AnalysisError = screenImage(bytes);
      if (!screened.ok) {
        photoRefused.inc({ code: screened.code });
        return { refused: 'photo', outcome: screened };
      }
      const admitted = queue.admit(client);
      if (!admitted.ok) {
        queueRefused.inc({ reason: admitted.reason });
        return { refused: 'queue', reason: admitted.reason, retryAfterSeconds: admitted.retryAfterSeconds };
      }
      const key = clientKeyOf(client);
      return {
        check: (face) =>
          admitted.ticket.run(() => {
            enginePhotos.inc({ call: 'check' });
            return engine.check(bytes, key, face);
          }),
        analyze: (face) =>
          admitted.ticket.run(() => {
            enginePhotos.inc({ call: 'analyze' });
            return engine.analyze(bytes, key, face);
          }),
        cancel: () => admitted.ticket.cancel(),
      };
    },
  };
}
