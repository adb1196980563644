import { binOf } from '@roots/contracts/frame-protocol';
import type { BinLookupResult } from '@roots/contracts/gateway';
import { CheckoutError } from '../../core/errors/checkout-error';

/** BIN lookup (checkout-spec §5, §7, §9): ≥ 6 digits, only when the BIN changed, throttled to 500 ms. */
export const BIN_LOOKUP_THROTTLE_MS = 500;
export const BIN_MIN_DIGITS = 6;

export type BinLookupTimers = { setTimeout: (run: () => void, ms: number) => unknown; clearTimeout: (id: unknown) => void };

/**
 * Feeds masked card-number values; calls `lookup` for a changed BIN at most once per 500 ms (the
 * latest BIN wins). A failed lookup reports BIN_LOOKUP_FAILED to `onError` and falls back to `{ bin }`.
 */
export function createBinLookup(
  lookup: (bin: string) => Promise<BinLookupResult>,
  onResult: (result: BinLookupResult) => void,
  timers: BinLookupTimers = { setTimeout: (run, ms) => setTimeout(run, ms), clearTimeout: (id) => clearTimeout(id as number) },
  onError: (error: CheckoutError) => void = () => {},
): (maskedValue: string) => void {
  let lastBin = '';
  let pending: string | undefined;
  let timer: unknown;
  let lastRunAt = -Infinity;
  const run = () => {
    timer = undefined;
    const bin = pending!;
    pending = undefined;
    lastRunAt = Date.now();
    lookup(bin).then(onResult, (cause: unknown) => {
      onError(new CheckoutError('BIN_LOOKUP_FAILED', `BIN lookup failed for ${bin}`, { cause }));
      onResult({ bin });
    });
  };
  return (maskedValue) => {
    const bin = binOf(maskedValue);
    if (bin.length < BIN_MIN_DIGITS || bin === lastBin) return;
    lastBin = bin;
    pending = bin;
    if (timer !== undefined) return;
    const wait = Math.max(0, lastRunAt + BIN_LOOKUP_THROTTLE_MS - Date.now());
    timer = timers.setTimeout(run, wait);
  };
}
