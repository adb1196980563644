import type { AnalysisOutcome, AnalysisPool } from '@roots/analysis';

/** What the server needs from the analysis engine. */
export type AnalysisEngine = {
  /** Analyses one photo in memory. Never rejects: failures come back as `{ ok: false, code, message }`. */
  analyze(bytes: Uint8Array): Promise<AnalysisOutcome>;
  close(): Promise<void>;
};

/**
 * The process's one analysis worker pool, created on first use (each worker costs ~0.9 s cold
 * start and ~285 MB) and closed with the app. `workers` defaults to the available cores.
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
  return {
    async analyze(bytes) {
      if (closed) return { ok: false, code: 'INTERNAL', message: 'Something went wrong on our side. Please try again in a moment.' };
      return (await open()).analyze(bytes);
    },
    async close() {
      closed = true;
      if (pool) await (await pool).close();
    },
  };
}
