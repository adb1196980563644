import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { repeatingPass } from './repeating-pass';

describe('repeatingPass', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** A pass that stays open until `finish()`; each call is counted. */
  function controlledRun() {
    const calls: Array<() => void> = [];
    const run = vi.fn(() => new Promise<void>((resolve) => calls.push(resolve)));
    return { run, finish: () => calls.shift()?.() };
  }

  it('runs the first pass after firstAfterMs and the next intervalMs after the last one ended', async () => {
    const { run, finish } = controlledRun();
    const loop = repeatingPass({ intervalMs: 1_000, firstAfterMs: 100, run, onError: vi.fn() });
    loop.start();
    await vi.advanceTimersByTimeAsync(99);
    expect(run).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(1);
    // A slow pass: no second one starts while it runs, however long.
    await vi.advanceTimersByTimeAsync(5_000);
    expect(run).toHaveBeenCalledTimes(1);
    finish();
    await vi.advanceTimersByTimeAsync(999);
    expect(run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(2);
    finish();
    await loop.stop();
  });

  it('kick runs a pass now, unless one is running', async () => {
    const { run, finish } = controlledRun();
    const loop = repeatingPass({ intervalMs: 1_000, run, onError: vi.fn() });
    loop.kick();
    loop.kick();
    expect(run).toHaveBeenCalledTimes(1);
    finish();
    await vi.advanceTimersByTimeAsync(0);
    loop.kick();
    expect(run).toHaveBeenCalledTimes(2);
    finish();
    await loop.stop();
  });

  it('reports a failed pass and goes on', async () => {
    const onError = vi.fn();
    const run = vi.fn().mockRejectedValueOnce(new Error('database gone')).mockResolvedValue(undefined);
    const loop = repeatingPass({ intervalMs: 50, firstAfterMs: 0, run, onError });
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(onError).toHaveBeenCalledWith(new Error('database gone'));
    await vi.advanceTimersByTimeAsync(50);
    expect(run).toHaveBeenCalledTimes(2);
    await loop.stop();
  });

  it('stop waits for the pass in flight, and none starts after it', async () => {
    const { run, finish } = controlledRun();
    const loop = repeatingPass({ intervalMs: 10, firstAfterMs: 0, run, onError: vi.fn() });
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    finish();
    await stopping;
    expect(stopped).toBe(true);
    loop.kick();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(run).toHaveBeenCalledTimes(1);
  });
});
