import { Analyzer, type AnalysisOutcome, type FaceCheckOutcome } from '../analyzer.js';
import type { FaceBox } from '../errors.js';

/**
 * What the pool sends to a worker: a full analysis, or with `checkOnly` the face check alone.
 * `crashForTest` only works with ROOTS_ANALYSIS_TEST_HOOKS=1.
 */
export interface WorkerTask {
  bytes: Uint8Array;
  checkOnly?: boolean;
  /** The face a customer chose in a group photo (ADR 192). */
  face?: FaceBox | undefined;
  crashForTest?: boolean;
}

let analyzer: Promise<Analyzer> | undefined;

export default async function analyzeTask(task: WorkerTask): Promise<AnalysisOutcome | FaceCheckOutcome> {
  if (task.crashForTest && process.env.ROOTS_ANALYSIS_TEST_HOOKS === '1') process.exit(13);
  analyzer ??= Analyzer.create();
  const loaded = await analyzer;
  return task.checkOnly ? loaded.check(task.bytes, task.face) : loaded.analyze(task.bytes, task.face);
}
