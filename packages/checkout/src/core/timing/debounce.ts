export type DebounceTimers = { setTimeout: (run: () => void, ms: number) => unknown; clearTimeout: (id: unknown) => void };

const realTimers: DebounceTimers = { setTimeout: (run, ms) => setTimeout(run, ms), clearTimeout: (id) => clearTimeout(id as number) };

/**
 * Runs `run` once calls have stopped for `waitMs` (the latest arguments win); `cancel` drops a
 * pending run. Used for PayPal's re-render after the save checkbox toggles (300 ms, checkout-spec §9).
 */
export function debounce<Args extends unknown[]>(
  run: (...args: Args) => void,
  waitMs: number,
  timers: DebounceTimers = realTimers,
): ((...args: Args) => void) & { cancel: () => void } {
  let timer: unknown;
  const debounced = (...args: Args) => {
    if (timer !== undefined) timers.clearTimeout(timer);
    timer = timers.setTimeout(() => {
      timer = undefined;
      run(...args);
    }, waitMs);
  };
  return Object.assign(debounced, {
    cancel: () => {
      if (timer !== undefined) timers.clearTimeout(timer);
      timer = undefined;
    },
  });
}
