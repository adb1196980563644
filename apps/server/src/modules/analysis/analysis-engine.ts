import type { AnalysisOutcome, AnalysisPool, FaceBox, FaceCheckOutcome } from '@roots/analysis';

/** What the server needs from the analysis engine. */
export type AnalysisEngine = {
  /**
   * Analyses one photo in memory. Never rejects: failures come back as `{ ok: false, code, cause? }`.
   * `client` is the sender's key for the analyzers' fair share (see clientKeyOf); the pool ignores it.
   * `face` is the face the customer chose in a group photo (ADR 192).
   */
  analyze(bytes: Uint8Array, client?: string, face?: FaceBox): Promise<AnalysisOutcome>;
  /** The face check alone (one usable face, light, size, sharpness): the same errors, about half the work. */
  check(bytes: Uint8Array, client?: string, face?: FaceBox): Promise<FaceCheckOutcome>;
  close(): Promise<void>;
};

/**
 * The process's one analysis worker pool, created on first use (each worker costs ~0.5 s cold
 * start and ~200–210 MB, MODEL_CARD.md) and closed with the app. `workers` defaults to the available cores.
 *
 * @example
 * const engine = lazyAnalysisEngine(config.ANALYSIS_WORKERS);
 * const outcome = await engine.analyze(bytes);
 */
export function lazyAnalysisEngine(workers: number | undefined): AnalysisEngine {
  let pool: Promise<AnalysisPool> | undefined;
  let closed = false;
  const open = (): Promise<AnalysisPool> => {
    // Loaded on first use so that an app which never analyses (most tests) never starts workers.
    pool ??= import('@roots/analysis').then(({ createAnalysisPool }) => createAnalysisPool(workers === undefined ? {} : { size: workers }));
    return pool;
  };
  const closedOutcome = { ok: false, code: 'INTERNAL' } as const;
  return {
    async analyze(bytes, _client, face) {
      return closed ? closedOutcome : (await open()).analyze(bytes, face);
    },
    async check(bytes, _client, face) {
      return closed ? closedOutcome : (await open()).check(bytes, face);
    },
    async close() {
      closed = true;
      if (pool) await (await pool).close();
    },
  };
}
