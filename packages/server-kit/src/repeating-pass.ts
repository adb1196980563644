/** A pass that runs again and again in this process (see {@link repeatingPass}). */
export interface RepeatingPass {
  /** Runs the first pass after `firstAfterMs`, then one `intervalMs` after each ends. */
  start(): void;
  /** Runs a pass now unless one is running or the loop is stopped. */
  kick(): void;
  /** No pass starts any more; waits for the running one. */
  stop(): Promise<void>;
}

export interface RepeatingPassOptions {
  intervalMs: number;
  /** Delay of the first pass after `start()`; `intervalMs` when not given. */
  firstAfterMs?: number;
  run: () => Promise<unknown>;
  /** A failed pass is reported here; the loop goes on. */
  onError: (error: unknown) => void;
}

/**
 * The timer loop of the product server's billing scheduler and report expiry sweep and of the
 * gateway's webhook deliveries, written once (issue 33): never two passes at once, the next one
 * `intervalMs` after the last ended (a slow pass is never stacked), a failure reported and the loop
 * kept, `stop()` waiting for the pass in flight so shutdown never cuts one in half. The timer does
 * not keep the process alive.
 */
export function repeatingPass({ intervalMs, firstAfterMs = intervalMs, run, onError }: RepeatingPassOptions): RepeatingPass {
  let state: 'idle' | 'started' | 'stopped' = 'idle';
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const schedule = (delayMs: number) => {
    clearTimeout(timer);
    timer = setTimeout(kick, delayMs);
    timer.unref();
  };
  function kick(): void {
    if (running || state === 'stopped') return;
    clearTimeout(timer);
    running = (async () => {
      try {
        await run();
      } catch (error) {
        onError(error);
      } finally {
        running = undefined;
        if (state === 'started') schedule(intervalMs);
      }
    })();
  }
  return {
    start() {
      state = 'started';
      schedule(firstAfterMs);
    },
    kick,
    async stop() {
      state = 'stopped';
      clearTimeout(timer);
      await running;
    },
  };
}
