import type { Execution } from '@roots/contracts/gateway';
import { PIX_TIMEOUT_MS } from '@roots/contracts/gateway-constants';
import { CheckoutError } from '../errors/checkout-error';
import { isFinalExecutionStatus } from '@roots/contracts/gateway';

/** Polling constants of checkout-spec §9. */
export const POLL_INITIAL_DELAY_MS = 2_000;
export const POLL_INTERVAL_MS = 680;
export const POLL_MAX_ATTEMPTS = 60;
/** A failed poll request costs this many attempts. */
export const POLL_ERROR_COUNT_MULTIPLIER = 5;
/** Polls an execution may stay not yet authorized (`created` / `authorizeRequested`) before giving up. */
export const POLL_AUTHORIZE_REQUESTED_MAX_POLLS = 10;

/** Pix (checkout-spec §9): popup lives 750 000 ms, polling starts after 20 000 ms, every 2 000 ms. */
export const PIX_POPUP_TIMEOUT_MS = PIX_TIMEOUT_MS;
export const PIX_POLL_INITIAL_DELAY_MS = 20_000;
export const PIX_POLL_INTERVAL_MS = 2_000;
export const PIX_POLL_MAX_ATTEMPTS = Math.ceil((PIX_POPUP_TIMEOUT_MS - PIX_POLL_INITIAL_DELAY_MS) / PIX_POLL_INTERVAL_MS);

export type PollTimers = { sleep: (ms: number, signal?: AbortSignal) => Promise<void> };

/** Real timers; sleeping rejects when the signal aborts. */
export const realTimers: PollTimers = {
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const id = setTimeout(resolve, ms);
      signal?.addEventListener('abort', () => {
        clearTimeout(id);
        reject(signal.reason);
      });
    }),
};

export type PollOptions = {
  fetchExecution: () => Promise<Execution>;
  timers?: PollTimers;
  initialDelayMs?: number;
  intervalMs?: number;
  maxAttempts?: number;
  errorCountMultiplier?: number;
  authorizeRequestedMaxPolls?: number;
  signal?: AbortSignal;
  /** Default true. Pix polling passes false: it waits for the bank, so pending is not the end. */
  pendingIsFinal?: boolean;
  /** Errors that must not be retried (e.g. 401/403). Default: CheckoutError UNAUTHORIZED / AUTHENTICATION_ERROR. */
  isFatal?: (error: unknown) => boolean;
};

const defaultIsFatal = (error: unknown) =>
  error instanceof CheckoutError && (error.code === 'UNAUTHORIZED' || error.code === 'AUTHENTICATION_ERROR');

/**
 * Polls an execution until its status is final (checkout-spec §4, §9): waits `initialDelayMs`,
 * then reads every `intervalMs`. A successful read costs one attempt, a failed one
 * `errorCountMultiplier`; past `maxAttempts` it throws MAX_POLL_ATTEMPTS_EXCEEDED. An execution
 * still not authorized after `authorizeRequestedMaxPolls` reads throws AUTHORIZATION_NOT_REQUESTED.
 */
export async function pollExecution(options: PollOptions): Promise<Execution> {
  const timers = options.timers ?? realTimers;
  const maxAttempts = options.maxAttempts ?? POLL_MAX_ATTEMPTS;
  const multiplier = options.errorCountMultiplier ?? POLL_ERROR_COUNT_MULTIPLIER;
  const requestedMax = options.authorizeRequestedMaxPolls ?? POLL_AUTHORIZE_REQUESTED_MAX_POLLS;
  const isFatal = options.isFatal ?? defaultIsFatal;
  let attempts = 0;
  let notRequestedPolls = 0;
  let lastError: unknown;
  await timers.sleep(options.initialDelayMs ?? POLL_INITIAL_DELAY_MS, options.signal);
  for (;;) {
    try {
      const execution = await options.fetchExecution();
      attempts += 1;
      const pendingIsFinal = options.pendingIsFinal ?? true;
      if (execution.status === 'authorizePending' && !pendingIsFinal) {
        // waiting on the shopper's bank: keep polling
      } else if (isFinalExecutionStatus(execution.status) || execution.status === 'confirmRequested') return execution;
      else notRequestedPolls += 1;
      if (notRequestedPolls >= requestedMax) throw new CheckoutError('AUTHORIZATION_NOT_REQUESTED');
    } catch (error) {
      if (error instanceof CheckoutError && error.code === 'AUTHORIZATION_NOT_REQUESTED') throw error;
      if (isFatal(error)) throw error;
      attempts += multiplier;
      lastError = error;
    }
    if (attempts >= maxAttempts) throw new CheckoutError('MAX_POLL_ATTEMPTS_EXCEEDED', undefined, { cause: lastError });
    await timers.sleep(options.intervalMs ?? POLL_INTERVAL_MS, options.signal);
  }
}
