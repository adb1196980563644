import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { AnalysisOutcome, FaceCheckOutcome } from '../analyzer.js';
import { analysisError, type FaceBox } from '../errors.js';
import type { WorkerTask } from './worker.js';

export interface AnalysisPoolOptions {
  /** Worker threads; each holds its own models (see MODEL_CARD.md for RSS). Default: available cores. */
  size?: number;
  /** Most requests waiting for a worker before `analyze` answers INTERNAL. Default: 1000. */
  maxQueue?: number;
}

export interface AnalysisPool {
  /**
   * Analyses one photo (with `face`, the face a customer chose in a group photo; ADR 192). Never
   * rejects: failures come back as `{ ok: false, code, cause? }`.
   */
  analyze(bytes: Uint8Array, face?: FaceBox): Promise<AnalysisOutcome>;
  /**
   * The face check alone (one usable face, light, size, sharpness) at about half the cost of
   * `analyze`: no descriptor, estimate, traits or attributions. Never rejects, same errors.
   */
  check(bytes: Uint8Array, face?: FaceBox): Promise<FaceCheckOutcome>;
  /** Loads models in every worker now rather than on the first request. */
  warmUp(): Promise<void>;
  close(): Promise<void>;
  /** Test hook: makes one worker exit (needs ROOTS_ANALYSIS_TEST_HOOKS=1 in the environment). */
  crashWorkerForTest(): Promise<AnalysisOutcome>;
  readonly size: number;
}

/**
 * V8 young generation per worker, in MB (two 2 MB semi-spaces plus V8's new large-object space, so
 * the same as `node --max-semi-space-size=2`). Node's default for a worker is 48 MB, which a worker
 * fills with short-lived garbage before scavenging: ~30 MB more RSS per worker for no speed we could
 * measure. The photo and model data live outside the JS heap (wasm memory, Buffers).
 */
export const WORKER_YOUNG_GENERATION_MB = 6;

function workerLocation(): { filename: string; execArgv: string[] } {
  const here = new URL('.', import.meta.url);
  // Under tsx/vitest we run from src/*.ts; built code runs dist/*.js with plain node.
  if (import.meta.url.endsWith('.ts')) {
    return { filename: new URL('worker.ts', here).href, execArgv: ['--import', 'tsx'] };
  }
  return { filename: new URL('worker.js', here).href, execArgv: [] };
}

/**
 * A worker-thread pool sized to the machine's cores, each worker with its own wasm runtime.
 *
 * @example
 * const pool = createAnalysisPool();
 * const outcome = await pool.analyze(bytes);
 * await pool.close();
 */
export function createAnalysisPool(options: AnalysisPoolOptions = {}): AnalysisPool {
  const size = Math.max(1, options.size ?? availableParallelism());
  const { filename, execArgv } = workerLocation();
  const piscina = new Piscina<WorkerTask, AnalysisOutcome | FaceCheckOutcome>({
    filename,
    execArgv,
    minThreads: size,
    maxThreads: size,
    // One inference at a time per worker: wasm is single-threaded and extra tasks only add memory.
    concurrentTasksPerWorker: 1,
    maxQueue: options.maxQueue ?? 1000,
    idleTimeout: 60_000,
    resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
  });

  // The worker answers a check task with a FaceCheckOutcome and any other with an AnalysisOutcome.
  const run = async <Outcome extends AnalysisOutcome | FaceCheckOutcome>(task: WorkerTask): Promise<Outcome> => {
    try {
      return (await piscina.run(task)) as Outcome;
    } catch (error) {
      return analysisError('INTERNAL', error instanceof Error ? error.message.slice(0, 200) : 'worker failed') as Outcome;
    }
  };

  return {
    size,
    analyze: (bytes, face) => run<AnalysisOutcome>({ bytes, face }),
    check: (bytes, face) => run<FaceCheckOutcome>({ bytes, checkOnly: true, face }),
    async warmUp() {
      // An empty buffer is rejected by the decoder, but only after the worker has loaded its models.
      await Promise.all(Array.from({ length: size }, () => run({ bytes: new Uint8Array(0) })));
    },
    crashWorkerForTest: () => run<AnalysisOutcome>({ bytes: new Uint8Array(0), crashForTest: true }),
    close: () => piscina.destroy(),
  };
}
