import type { PaymentStatusResponse } from '@roots/contracts/subscriptions';
import { act, renderHook } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RequestError } from '../../lib/api-client';
import { MAX_AUTOMATIC_CHECKS, PENDING_RECHECK_MS, stillPending, usePendingPurchase } from './use-pending-purchase';

afterEach(() => vi.useRealTimers());

const conflict = () => new RequestError('Something went wrong, cant create subscription', 'CONFLICT', 409);
/** Lets the hook's promise chain settle inside act (Preact renders what it set at act's end). */
const flush = () =>
  act(async () => {
    for (let tick = 0; tick < 8; tick += 1) await Promise.resolve();
  });
/** The page's next check by itself: the last answer settles, its timer fires, the ask starts. */
const waitRecheck = async () => {
  await flush();
  await act(async () => {
    vi.advanceTimersByTime(PENDING_RECHECK_MS);
    for (let tick = 0; tick < 8; tick += 1) await Promise.resolve();
  });
  await flush();
};

/** The server's two answers: the create call (records the purchase, pending: CONFLICT) and the status read. */
function server(statuses: Array<PaymentStatusResponse | Error>) {
  const create = vi.fn<() => Promise<{ id: string }>>().mockRejectedValue(conflict());
  const status = vi.fn<() => Promise<PaymentStatusResponse>>();
  for (const answer of statuses) {
    if (answer instanceof Error) status.mockRejectedValueOnce(answer);
    else status.mockResolvedValueOnce(answer);
  }
  status.mockResolvedValue({ status: 'pending' });
  return { create, status };
}

describe('usePendingPurchase (the paywall waiting on a pending payment)', () => {
  it('records the purchase once, then reads its status every PENDING_RECHECK_MS and on "check again", then hands over the id', async () => {
    vi.useFakeTimers();
    const calls = server([{ status: 'pending' }, { status: 'pending' }, { status: 'paid', id: 'sub_1' }]);
    const onCreated = vi.fn();
    const { result } = renderHook(() => usePendingPurchase(calls, onCreated));
    await flush();
    expect(calls.create).toHaveBeenCalledTimes(1);
    expect(calls.status).not.toHaveBeenCalled();
    expect(result.current).toMatchObject({ state: { status: 'waiting', lastCheck: null }, checking: false });
    await waitRecheck();
    expect(calls.status).toHaveBeenCalledTimes(1);
    // "Check again now" does not wait for the timer, and its answer is shown.
    act(() => result.current.checkNow());
    expect(result.current.checking).toBe(true);
    await flush();
    expect(calls.status).toHaveBeenCalledTimes(2);
    expect(result.current).toMatchObject({ state: { status: 'waiting', lastCheck: 'pending' }, checking: false });
    act(() => result.current.checkNow());
    await flush();
    expect(calls.create).toHaveBeenCalledTimes(1);
    expect(onCreated).toHaveBeenCalledWith('sub_1');
  });

  it('"check again" that cannot reach the server keeps waiting and says so; it is never an error screen', async () => {
    const calls = server([new RequestError('Something went wrong', 'SERVICE_UNAVAILABLE', 503)]);
    const { result } = renderHook(() => usePendingPurchase(calls, vi.fn()));
    await flush();
    act(() => result.current.checkNow());
    await flush();
    expect(result.current.state).toEqual({ status: 'waiting', lastCheck: 'unreachable' });
    act(() => result.current.checkNow());
    await flush();
    expect(result.current.state).toEqual({ status: 'waiting', lastCheck: 'pending' });
  });

  it.each(['failed', 'expired', 'refunded'] as const)('a payment that ended %s ends the wait, saying so', async (ended) => {
    const calls = server([{ status: ended }]);
    const onCreated = vi.fn();
    const { result } = renderHook(() => usePendingPurchase(calls, onCreated));
    await flush();
    act(() => result.current.checkNow());
    await flush();
    expect(result.current.state).toEqual({ status: 'not-paid', reason: ended });
    expect(onCreated).not.toHaveBeenCalled();
  });

  it('a create call the server refuses ends the wait at once: declined, or set aside because the plan is owned', async () => {
    const declined = server([]);
    declined.create.mockRejectedValue(new RequestError('Something went wrong, cant create subscription', 'PAYMENT_NOT_ACCEPTED', 402));
    const first = renderHook(() => usePendingPurchase(declined, vi.fn()));
    await flush();
    expect(first.result.current.state).toMatchObject({ status: 'not-paid', reason: 'failed' });
    const owned = server([]);
    owned.create.mockRejectedValue(new RequestError('You already have this', 'ALREADY_OWNED', 409));
    const second = renderHook(() => usePendingPurchase(owned, vi.fn()));
    await flush();
    expect(second.result.current.state).toMatchObject({ status: 'not-paid', reason: 'refunded', message: 'You already have this' });
    expect(owned.status).not.toHaveBeenCalled();
  });

  it('no answer to the create call is retried with the create call (the purchase is not recorded yet)', async () => {
    vi.useFakeTimers();
    const calls = server([]);
    calls.create.mockRejectedValueOnce(new RequestError('Network Error', 'NETWORK_ERROR', 0)).mockRejectedValue(conflict());
    renderHook(() => usePendingPurchase(calls, vi.fn()));
    await flush();
    await waitRecheck();
    expect(calls.create).toHaveBeenCalledTimes(2);
    expect(calls.status).not.toHaveBeenCalled();
    await waitRecheck();
    expect(calls.status).toHaveBeenCalledTimes(1);
  });

  it(`stops checking by itself after ${MAX_AUTOMATIC_CHECKS} checks; "check again" still works`, async () => {
    vi.useFakeTimers();
    const calls = server([]);
    const { result } = renderHook(() => usePendingPurchase(calls, vi.fn()));
    await flush();
    for (let index = 0; index < MAX_AUTOMATIC_CHECKS + 5; index += 1) await waitRecheck();
    expect(calls.status).toHaveBeenCalledTimes(MAX_AUTOMATIC_CHECKS);
    act(() => result.current.checkNow());
    await flush();
    expect(calls.status).toHaveBeenCalledTimes(MAX_AUTOMATIC_CHECKS + 1);
  });

  it('CONFLICT, no answer and 5xx mean "not decided yet"; ALREADY_OWNED does not', () => {
    expect(stillPending(conflict())).toBe(true);
    expect(stillPending(new RequestError('Network Error', 'NETWORK_ERROR', 0))).toBe(true);
    expect(stillPending(new RequestError('x', 'SERVICE_UNAVAILABLE', 503))).toBe(true);
    expect(stillPending(new RequestError('x', 'ALREADY_OWNED', 409))).toBe(false);
    expect(stillPending(new RequestError('x', 'PAYMENT_NOT_ACCEPTED', 402))).toBe(false);
    expect(stillPending(new Error('Something went wrong, cant create subscription'))).toBe(false);
  });
});
