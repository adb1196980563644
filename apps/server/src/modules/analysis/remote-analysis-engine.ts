import type { AnalysisOutcome, FaceBox, FaceCheckOutcome } from '@roots/analysis';
import { FACE_BOX_PARAM, faceBoxToParam } from '@roots/contracts/face-check';
import {
  ANALYZER_ANALYZE_PATH,
  ANALYZER_CHECK_PATH,
  ANALYZER_CLIENT_HEADER,
  analyzerAnalysisOutcomeSchema,
  analyzerCheckOutcomeSchema,
  analyzerFailureSchema,
} from '@roots/contracts/analyzer';
import { requestIdHeaders } from '@roots/observability';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { AnalysisEngine } from './analysis-engine';

export type RemoteAnalysisOptions = {
  /** Base URLs of the analyzers (`ANALYSIS_URLS`); calls start round-robin and move on when one fails. */
  urls: string[];
  /** Timeout of one call to one analyzer. */
  timeoutMs: number;
  /** Total time a photo may spend trying analyzers (busy ones are retried after their `retry-after`). */
  deadlineMs: number;
  log: FastifyBaseLogger;
  /** The secret the analyzers share with the servers (`ANALYZER_SECRET`), sent as a bearer token. */
  secret?: string | undefined;
};

/** The analyzer's path, naming the face a customer chose in a group photo when there is one (ADR 192). */
const withFace = (path: string, face: FaceBox | undefined): string =>
  face === undefined ? path : `${path}?${FACE_BOX_PARAM}=${encodeURIComponent(faceBoxToParam(face))}`;

/** Longest wait honoured from an analyzer's `retry-after` before trying again. */
const MAX_RETRY_AFTER_MS = 2_000;

const internal = (cause: string) => ({ ok: false, code: 'INTERNAL', cause }) as const;

type Attempt<T> = { done: true; outcome: T } | { done: false; retryAfterMs: number; why: string };

/**
 * The analysis engine across the network (ADR 115): each photo goes in one request body straight to
 * one of the analyzers, in memory only. A refused connection, a timeout, a 5xx or a busy 503 moves
 * the photo to the next analyzer; when every analyzer is busy it waits their `retry-after` (capped)
 * until `deadlineMs`, then answers INTERNAL like a failed worker would. Never rejects. The request id
 * of the call that started the analysis goes along in `x-request-id`.
 *
 * @example
 * const engine = remoteAnalysisEngine({ urls: ['http://10.0.0.5:5000'], timeoutMs: 30_000, deadlineMs: 120_000, log });
 */
export function remoteAnalysisEngine({ urls, timeoutMs, deadlineMs, log, secret }: RemoteAnalysisOptions): AnalysisEngine {
  const authorization: Record<string, string> = secret ? { authorization: `Bearer ${secret}` } : {};
  const bases = urls.map((url) => url.replace(/\/$/, ''));
  let next = 0;
  let closed = false;

  async function attempt<T>(
    base: string,
    path: string,
    bytes: Uint8Array,
    client: string | undefined,
    schema: z.ZodType<T>,
  ): Promise<Attempt<T>> {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/octet-stream',
          ...authorization,
          ...requestIdHeaders(),
          ...(client === undefined ? {} : { [ANALYZER_CLIENT_HEADER]: client }),
        },
        body: bytes,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      return { done: false, retryAfterMs: 0, why: error instanceof Error ? `${error.name}: ${error.message}` : 'fetch failed' };
    }
    if (response.status === 503 || response.status === 429) {
      await response.body?.cancel();
      const seconds = Number(response.headers.get('retry-after'));
      return { done: false, retryAfterMs: Number.isFinite(seconds) ? Math.min(seconds * 1000, MAX_RETRY_AFTER_MS) : 500, why: 'busy' };
    }
    if (response.status === 413 || response.status === 415 || response.status === 422) {
      // The analyzer refused the photo itself (format, declared size): every analyzer would.
      const refused = analyzerFailureSchema.safeParse(await response.json().catch(() => undefined));
      if (refused.success) return { done: true, outcome: refused.data as T };
      return { done: false, retryAfterMs: 0, why: `status ${response.status}` };
    }
    if (!response.ok) {
      await response.body?.cancel();
      return { done: false, retryAfterMs: 0, why: `status ${response.status}` };
    }
    const parsed = schema.safeParse(await response.json().catch(() => undefined));
    return parsed.success
      ? { done: true, outcome: parsed.data }
      : { done: false, retryAfterMs: 0, why: 'answer does not match the contract' };
  }

  async function call<T>(
    path: string,
    bytes: Uint8Array,
    client: string | undefined,
    schema: z.ZodType<T>,
  ): Promise<T | ReturnType<typeof internal>> {
    if (closed) return internal('analysis engine closed');
    const deadline = Date.now() + deadlineMs;
    const start = next++ % bases.length;
    let lastWhy = 'no analyzer tried';
    for (let round = 0; Date.now() < deadline; round++) {
      let shortestWaitMs = Number.POSITIVE_INFINITY;
      for (let offset = 0; offset < bases.length && Date.now() < deadline; offset++) {
        const base = bases[(start + offset) % bases.length] as string;
        const result = await attempt(base, path, bytes, client, schema);
        if (result.done) return result.outcome;
        lastWhy = result.why;
        shortestWaitMs = Math.min(shortestWaitMs, result.retryAfterMs);
        log.warn({ analyzer: base, round, why: result.why }, 'analyzer call failed; trying another');
      }
      // Every analyzer refused this round: wait for the soonest to have room (at least a moment, so a dead fleet is not hammered).
      const waitMs = Math.min(Math.max(shortestWaitMs, 250), Math.max(0, deadline - Date.now()));
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
    return internal(`no analyzer answered: ${lastWhy}`);
  }

  return {
    analyze: (bytes, client, face) =>
      call(withFace(ANALYZER_ANALYZE_PATH, face), bytes, client, analyzerAnalysisOutcomeSchema) as Promise<AnalysisOutcome>,
    check: (bytes, client, face) =>
      call(withFace(ANALYZER_CHECK_PATH, face), bytes, client, analyzerCheckOutcomeSchema) as Promise<FaceCheckOutcome>,
    async close() {
      closed = true;
    },
  };
}
