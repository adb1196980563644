import { Analyzer, type AnalysisOutcome } from '../analyzer.js';

/** What the pool sends to a worker. `crashForTest` only works with ROOTS_ANALYSIS_TEST_HOOKS=1. */
export interface WorkerTask {
  bytes: Uint8Array;
  crashForTest?: boolean;
}

let analyzer: Promise<Analyzer> | undefined;

export default async function analyzeTask(task: WorkerTask): Promise<AnalysisOutcome> {
  if (task.crashForTest && process.env.ROOTS_ANALYSIS_TEST_HOOKS === '1') process.exit(13);
  analyzer ??= Analyzer.create();
  return (await analyzer).analyze(task.bytes);
}
