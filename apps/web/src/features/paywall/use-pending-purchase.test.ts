import { act, renderHook } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RequestError } from '../../lib/api-client';
import { PENDING_RECHECK_MS, stillPending, usePendingPurchase } from './use-pending-purchase';

afterEach(() => vi.useRealTimers());

const conflict = () => new RequestError('Something went wrong, cant create subscription', 'CONFLICT', 409);
/** Lets the hook's promise chain settle inside act (Preact renders what it set at act's end). */
const flush = () =>
  act(async () => {
    for (let tick = 0; tick < 5; tick += 1) await Promise.resolve();
  });

describe('usePendingPurchase (the paywall waiting on a pending payment)', () => {
  it('asks at once and every PENDING_RECHECK_MS while the server says it is still pending, then hands over the id', async () => {
    vi.useFakeTimers();
    const create = vi.fn<() => Promise<{ id: string }>>().mockRejectedValueOnce(conflict()).mockRejectedValueOnce(conflict());
    create.mockResolvedValue({ id: 'sub_1' });
    const onCreated = vi.fn();
    const { result } = renderHook(() => usePendingPurchase(create, onCreated));
    await flush();
    expect(create).toHaveBeenCalledTimes(1);
    expect(result.current).toMatchObject({ state: { status: 'waiting' }, checking: false });
    await act(async () => {
      vi.advanceTimersByTime(PENDING_RECHECK_MS);
      for (let tick = 0; tick < 5; tick += 1) await Promise.resolve();
    });
    expect(create).toHaveBeenCalledTimes(2);
    // "Check again now" does not wait for the timer.
    act(() => result.current.checkNow());
    await flush();
    expect(create).toHaveBeenCalledTimes(3);
    expect(onCreated).toHaveBeenCalledWith('sub_1');
  });

  it('a refused payment ends the wait with the server message', async () => {
    const create = vi.fn(async () =>
      Promise.reject(new RequestError('Something went wrong, cant create subscription', 'PAYMENT_NOT_ACCEPTED', 402)),
    );
    const { result } = renderHook(() => usePendingPurchase(create, vi.fn()));
    await flush();
    expect(result.current.state).toEqual({ status: 'not-paid', message: 'Something went wrong, cant create subscription' });
  });

  it('only CONFLICT, no answer and 5xx mean "not decided yet"', () => {
    expect(stillPending(conflict())).toBe(true);
    expect(stillPending(new RequestError('Network Error', 'NETWORK_ERROR', 0))).toBe(true);
    expect(stillPending(new RequestError('x', 'SERVICE_UNAVAILABLE', 503))).toBe(true);
    expect(stillPending(new RequestError('x', 'PAYMENT_NOT_ACCEPTED', 402))).toBe(false);
    expect(stillPending(new Error('Something went wrong, cant create subscription'))).toBe(false);
  });
});
