import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AUTH_MAX_RETRIES, AUTH_NETWORK_TIMEOUT_MS, meResponseSchema } from '@roots/contracts/auth';
import { getJson } from './api-client';
import {
  clearRedirectFlagLater,
  fetchMe,
  identityRequest,
  keepSessionAlive,
  nextRefreshDelayMs,
  refreshSession,
  sendEmailCode,
  type RefreshOutcome,
} from './auth-session';

const MINUTE_MS = 60_000;

describe('session refresh timing (product-spec §4)', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  it('refreshes 5 minutes (plus the 30 s skew) before expiry', () => {
    expect(nextRefreshDelayMs(new Date(now.getTime() + 3_600_000), now, 0)).toBe(3_600_000 - 300_000 - 30_000);
    expect(nextRefreshDelayMs(new Date(now.getTime() + 60_000), now, 0)).toBe(0);
  });
  it('backs off from 30 s, doubling up to 16 minutes', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 8].map((failures) => nextRefreshDelayMs(now, now, failures));
    expect(delays).toEqual([30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 960_000, 960_000]);
  });
});

describe('keepSessionAlive', () => {
  const start = new Date('2026-03-01T10:00:00Z');
  let errors: unknown[][];

  beforeEach(() => {
    vi.useFakeTimers({ now: start });
    errors = [];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void errors.push(args));
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  /** A refresh whose answers are scripted; records when it was called (minutes after start). */
  function scriptedRefresh(answers: Array<RefreshOutcome | ((at: number) => RefreshOutcome)>) {
    const calledAtMinutes: number[] = [];
    const refresh = vi.fn(async (): Promise<RefreshOutcome> => {
      const at = Date.now();
      calledAtMinutes.push((at - start.getTime()) / MINUTE_MS);
      const next = answers.shift();
      if (!next) throw new Error('unexpected refresh');
      return typeof next === 'function' ? next(at) : next;
    });
    return { refresh, calledAtMinutes };
  }
  const extendedBy =
    (minutes: number) =>
    (at: number): RefreshOutcome => ({ kind: 'refreshed', expiresAt: new Date(at + minutes * MINUTE_MS) });

  it('refreshes 5.5 minutes before each end and follows the new end', async () => {
    const { refresh, calledAtMinutes } = scriptedRefresh([extendedBy(60), extendedBy(60)]);
    const onSignedOut = vi.fn();
    const stop = keepSessionAlive({ expiresAt: new Date(start.getTime() + 60 * MINUTE_MS), onSignedOut, refresh });
    await vi.advanceTimersByTimeAsync(54.4 * MINUTE_MS);
    expect(calledAtMinutes).toEqual([]);
    await vi.advanceTimersByTimeAsync(0.2 * MINUTE_MS);
    expect(calledAtMinutes).toEqual([54.5]);
    await vi.advanceTimersByTimeAsync(54.5 * MINUTE_MS);
    expect(calledAtMinutes).toEqual([54.5, 109]);
    stop();
    await vi.advanceTimersByTimeAsync(120 * MINUTE_MS);
    expect(refresh).toHaveBeenCalledTimes(2);
    expect(onSignedOut).not.toHaveBeenCalled();
  });

  it("after network failures logs 'refresh-failed' and backs off 30 s, 1 min, 2 min… until an answer comes", async () => {
    const offline: RefreshOutcome = { kind: 'failed', error: new Error('Network Error') };
    const { refresh, calledAtMinutes } = scriptedRefresh([offline, offline, offline, offline, extendedBy(60)]);
    const stop = keepSessionAlive({ expiresAt: new Date(start.getTime() + 10 * MINUTE_MS), onSignedOut: vi.fn(), refresh });
    await vi.advanceTimersByTimeAsync(30 * MINUTE_MS);
    // due at 4.5; then +0.5, +1, +2, +4 minutes
    expect(calledAtMinutes).toEqual([4.5, 5, 6, 8, 12]);
    expect(errors.map(([label]) => label)).toEqual(['refresh-failed', 'refresh-failed', 'refresh-failed', 'refresh-failed']);
    // Back on schedule once refreshed (new end 72): the next one 5.5 minutes before it, at 66.5.
    await vi.advanceTimersByTimeAsync(36 * MINUTE_MS);
    expect(refresh).toHaveBeenCalledTimes(5);
    stop();
  });

  it('an answer that does not move the end counts as a failure (no refresh loop)', async () => {
    const end = new Date(start.getTime() + 4 * MINUTE_MS);
    const same: RefreshOutcome = { kind: 'refreshed', expiresAt: end };
    const { refresh, calledAtMinutes } = scriptedRefresh([same, same, { kind: 'signed-out' }]);
    const onSignedOut = vi.fn();
    keepSessionAlive({ expiresAt: end, onSignedOut, refresh });
    await vi.advanceTimersByTimeAsync(5 * MINUTE_MS);
    expect(calledAtMinutes).toEqual([0, 0.5, 1.5]);
    expect(onSignedOut).toHaveBeenCalledTimes(1);
  });

  it('signs out once when the server says the session is gone, and stops refreshing', async () => {
    const { refresh } = scriptedRefresh([{ kind: 'signed-out' }]);
    const onSignedOut = vi.fn();
    keepSessionAlive({ expiresAt: new Date(start.getTime() + 6 * MINUTE_MS), onSignedOut, refresh });
    await vi.advanceTimersByTimeAsync(60 * MINUTE_MS);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(onSignedOut).toHaveBeenCalledTimes(1);
  });

  it('waits past setTimeout’s 24.8-day limit in steps instead of firing at once', async () => {
    const { refresh } = scriptedRefresh([extendedBy(60 * 24 * 60)]);
    keepSessionAlive({ expiresAt: new Date(start.getTime() + 30 * 24 * 60 * MINUTE_MS), onSignedOut: vi.fn(), refresh });
    await vi.advanceTimersByTimeAsync(25 * 24 * 60 * MINUTE_MS);
    expect(refresh).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(5 * 24 * 60 * MINUTE_MS);
    expect(refresh).toHaveBeenCalledTimes(1);
  });
});

describe('refreshSession', () => {
  afterEach(() => vi.unstubAllGlobals());

  const answering = (status: number, body: unknown) =>
    vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));

  it('posts to /api/auth/refresh-session and reads the new end', async () => {
    const fetchMock = answering(200, { session_expires_at: '2026-03-08T10:00:00.000Z' });
    vi.stubGlobal('fetch', fetchMock);
    expect(await refreshSession()).toEqual({ kind: 'refreshed', expiresAt: new Date('2026-03-08T10:00:00.000Z') });
    expect(fetchMock).toHaveBeenCalledWith('/api/auth/refresh-session', expect.objectContaining({ method: 'POST' }));
  });

  it('a 401 (user-token-expired or user-disabled) is a sign-out; a 503 or no network a failure', async () => {
    vi.stubGlobal('fetch', answering(401, { code: 'user-disabled', message: 'user-disabled' }));
    expect(await refreshSession()).toEqual({ kind: 'signed-out' });
    vi.stubGlobal('fetch', answering(503, { error: 'Something went wrong', code: 'UNAVAILABLE' }));
    expect((await refreshSession()).kind).toBe('failed');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    expect((await refreshSession()).kind).toBe('failed');
  });
});

describe('identity calls on the network (product-spec §9: timeout 30 to 60 s, at most 3 retries)', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });
  const me = {
    user: {
      uid: 'u1',
      email: 'ada@example.com',
      displayName: 'Ada',
      providerId: 'email',
      providerDataId: 'u1',
      isAppleAuth: false,
      isGoogleAuth: false,
    },
    has_purchase: true,
    access: [],
    session_expires_at: '2026-03-01T12:00:00.000Z',
  };

  it('a read that gets no answer is tried again, 3 times at most', async () => {
    const fetchMock = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    vi.stubGlobal('fetch', fetchMock);
    await expect(fetchMe()).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
    expect(fetchMock).toHaveBeenCalledTimes(1 + AUTH_MAX_RETRIES);
    expect(AUTH_MAX_RETRIES).toBe(3);
  });

  it('an answer is final, even an error answer: no retry', async () => {
    const fetchMock = vi.fn(async () => Response.json({ error: 'down', code: 'INTERNAL_ERROR' }, { status: 500 }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(fetchMe()).rejects.toMatchObject({ status: 500 });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('recovers when a retry gets its answer', async () => {
    let calls = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        calls += 1;
        if (calls < 3) throw new TypeError('Failed to fetch');
        return Response.json(me);
      }),
    );
    expect(await fetchMe()).toMatchObject({ user: { email: 'ada@example.com' } });
    expect(calls).toBe(3);
  });

  it('an email code is sent once: a second code would replace the first', async () => {
    const fetchMock = vi.fn(async (_url: string) => {
      throw new TypeError('Failed to fetch');
    });
    vi.stubGlobal('fetch', fetchMock);
    await expect(sendEmailCode('ada@example.com')).rejects.toBeTruthy();
    const codeRequests = fetchMock.mock.calls.filter(([url]) => String(url).includes('send-verification-otp'));
    expect(codeRequests.length).toBeLessThanOrEqual(1);
  });

  it('each try is given 30 s (the timeout the spec allows is 30 to 60 s), and its end reads as a timeout', async () => {
    const controller = new AbortController();
    const timeout = vi.spyOn(AbortSignal, 'timeout').mockReturnValue(controller.signal);
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise<Response>((_resolve, reject) => init.signal!.addEventListener('abort', () => reject(init.signal!.reason))),
      ),
    );
    const outcome = identityRequest((signal) => getJson('/api/account/me', meResponseSchema, signal), 0).catch((error: unknown) => error);
    expect(timeout).toHaveBeenCalledWith(AUTH_NETWORK_TIMEOUT_MS);
    expect(AUTH_NETWORK_TIMEOUT_MS).toBe(30_000);
    controller.abort(new DOMException('signal timed out', 'TimeoutError'));
    expect(await outcome).toMatchObject({ code: 'ETIMEDOUT', message: 'timeout of 30000ms exceeded' });
    timeout.mockRestore();
  });
});

describe('the redirect-wait flag (product-spec §4, §9: cleared 3000 ms after start-up)', () => {
  afterEach(() => {
    vi.useRealTimers();
    window.localStorage.clear();
  });

  it('stays until 3000 ms have passed, then is gone; a stop before then keeps it', async () => {
    vi.useFakeTimers();
    window.localStorage.setItem('waitingForRedirectResponse', 'true');
    clearRedirectFlagLater();
    vi.advanceTimersByTime(2_999);
    expect(window.localStorage.getItem('waitingForRedirectResponse')).toBe('true');
    vi.advanceTimersByTime(1);
    expect(window.localStorage.getItem('waitingForRedirectResponse')).toBeNull();

    window.localStorage.setItem('waitingForRedirectResponse', 'true');
    const stop = clearRedirectFlagLater();
    vi.advanceTimersByTime(1_000);
    stop();
    vi.advanceTimersByTime(5_000);
    expect(window.localStorage.getItem('waitingForRedirectResponse')).toBe('true');
  });
});
