import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { AnalysisOutcome } from '../analyzer.js';
import { analysisError } from '../errors.js';
import type { WorkerTask } from './worker.js';

export interface AnalysisPoolOptions {
  /** Worker threads; each holds its own models (~150-200 MB). Default: available cores. */
  size?: number;
  /** Most requests waiting for a worker before `analyze` answers INTERNAL. Default: 1000. */
  maxQueue?: number;
}

export interface AnalysisPool {
  /** Analyses one photo. Never rejects: failures come back as `{ ok: false, code, message }`. */
  analyze(bytes: Uint8Array): Promise<AnalysisOutcome>;
  /** Loads models in every worker now rather than on the first request. */
  warmUp(): Promise<void>;
  close(): Promise<void>;
  /** Test hook: makes one worker exit (needs ROOTS_ANALYSIS_TEST_HOOKS=1 in the environment). */
  crashWorkerForTest(): Promise<AnalysisOutcome>;
  readonly size: number;
}

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
  const piscina = new Piscina<WorkerTask, AnalysisOutcome>({
    filename,
    execArgv,
    minThreads: size,
    maxThreads: size,
    // One inference at a time per worker: wasm is single-threaded and extra tasks only add memory.
    concurrentTasksPerWorker: 1,
    maxQueue: options.maxQueue ?? 1000,
    idleTimeout: 60_000,
  });

  const run = async (task: WorkerTask): Promise<AnalysisOutcome> => {
    try {
      return await piscina.run(task);
    } catch (error) {
      return analysisError('INTERNAL', error instanceof Error ? error.message.slice(0, 200) : 'worker failed');
    }
  };

  return {
    size,
    analyze: (bytes) => run({ bytes }),
    async warmUp() {
      // An empty buffer is rejected by the decoder, but only after the worker has loaded its models.
      await Promise.all(Array.from({ length: size }, () => run({ bytes: new Uint8Array(0) })));
    },
    crashWorkerForTest: () => run({ bytes: new Uint8Array(0), crashForTest: true }),
    close: () => piscina.destroy(),
  };
}
