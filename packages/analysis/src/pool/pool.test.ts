import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badInputs, faceImage } from '../testing/fixtures.js';
import { callAndForget, collectedAfterGc } from '../testing/gc.js';
import { type AnalysisPool, createAnalysisPool } from './pool.js';

let pool: AnalysisPool;

beforeAll(async () => {
  pool = createAnalysisPool({ size: 2 });
  await pool.warmUp();
});

afterAll(async () => {
  await pool.close();
});

describe('analysis pool', () => {
  it('answers INTERNAL when a worker dies, then keeps serving', async () => {
    const crashed = await pool.crashWorkerForTest();
    expect(crashed.ok).toBe(false);
    if (!crashed.ok) expect(crashed.code).toBe('INTERNAL');
    const after = await pool.analyze(faceImage(12));
    expect(after.ok).toBe(true);
  });

  it('answers all of a burst of 50 concurrent requests, in order', async () => {
    // Mostly cheap rejections plus real faces, so the burst stays fast but exercises the queue.
    const inputs = await Promise.all(
      Array.from({ length: 50 }, async (_, i) =>
        i % 10 === 0 ? faceImage(13 + i / 10) : i % 2 === 0 ? badInputs.gradient() : badInputs.randomBytes(),
      ),
    );
    const outcomes = await Promise.all(inputs.map((bytes) => pool.analyze(bytes)));
    expect(outcomes).toHaveLength(50);
    outcomes.forEach((outcome, i) => {
      if (i % 10 === 0) expect(outcome.ok).toBe(true);
      else if (i % 2 === 0) expect(outcome.ok ? 'ok' : outcome.code).toBe('NO_FACE');
      else expect(outcome.ok ? 'ok' : outcome.code).toBe('UNSUPPORTED_IMAGE_FORMAT');
    });
  });

  it('runs the face check alone in a worker', async () => {
    const checked = await pool.check(faceImage(12));
    expect(checked.ok ? Object.keys(checked).sort() : checked.code).toEqual(['face', 'ok', 'quality']);
    const rejected = await pool.check(await badInputs.gradient());
    expect(rejected.ok ? 'ok' : rejected.code).toBe('NO_FACE');
  });

  it('does not keep the caller’s bytes alive', async () => {
    const { ref, result } = await callAndForget(faceImage(20), (bytes) => pool.analyze(bytes));
    expect(result.ok).toBe(true);
    expect(await collectedAfterGc(ref)).toBe(true);
  });
});
