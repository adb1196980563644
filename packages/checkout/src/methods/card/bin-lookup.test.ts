import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BIN_LOOKUP_THROTTLE_MS, createBinLookup } from './bin-lookup';

describe('BIN lookup (checkout-spec §5, §9)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('looks up only with ≥ 6 digits and a changed BIN, at most once per 500 ms (latest wins)', async () => {
    const lookup = vi.fn(async (bin: string) => ({ bin, issuerCountry: { code: 'US' } }));
    const onResult = vi.fn();
    const feed = createBinLookup(lookup, onResult);
    feed('42424');
    expect(BIN_LOOKUP_THROTTLE_MS).toBe(500);
    await vi.advanceTimersByTimeAsync(600);
    expect(lookup).not.toHaveBeenCalled();
    feed('424242');
    await vi.advanceTimersByTimeAsync(0);
    expect(lookup).toHaveBeenLastCalledWith('424242');
    feed('4242424');
    feed('42424242');
    feed('42424242XXXXXXXX');
    await vi.advanceTimersByTimeAsync(100);
    expect(lookup).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(500);
    expect(lookup).toHaveBeenCalledTimes(2);
    expect(lookup).toHaveBeenLastCalledWith('42424242');
    expect(onResult).toHaveBeenLastCalledWith({ bin: '42424242', issuerCountry: { code: 'US' } });
  });

  it('a BIN is the first 8 digits, dashes and X removed', async () => {
    const lookup = vi.fn(async (bin: string) => ({ bin }));
    createBinLookup(lookup, vi.fn())('5555-5555-4444-XXXX');
    await vi.advanceTimersByTimeAsync(0);
    const [bin] = lookup.mock.calls[0]!;
    expect(bin).toBe('55555555');
    expect(bin).toHaveLength(8);
  });

  it('falls back to the BIN alone when the lookup fails', async () => {
    const onResult = vi.fn();
    const feed = createBinLookup(() => Promise.reject(new Error('down')), onResult);
    feed('555555XXXXXXXXXX');
    await vi.advanceTimersByTimeAsync(10);
    expect(onResult).toHaveBeenCalledWith({ bin: '555555' });
  });
});
