import type { PublicConfig } from '@roots/contracts';
import type { MeResponse } from '@roots/contracts/auth';
import { act, cleanup, render, screen } from '@testing-library/preact';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSignedIn } from './auth-guard';
import { PublicConfigProvider } from './public-config-context';

const START = new Date('2026-03-01T10:00:00Z');
const MINUTE_MS = 60_000;

const me = (expiresInMinutes: number, hasPurchase = true): MeResponse => ({
  user: {
    uid: 'user-1',
    email: 'ada@example.com',
    displayName: 'Ada',
    providerId: 'email',
    providerDataId: 'ada@example.com',
    isAppleAuth: false,
    isGoogleAuth: false,
  },
  has_purchase: hasPurchase,
  access: hasPurchase ? ['subscription'] : [],
  session_expires_at: new Date(START.getTime() + expiresInMinutes * MINUTE_MS).toISOString(),
});

type Answer = { status: number; body?: unknown } | 'offline';
const json = (status: number, body: unknown = {}) => ({ status, body });

/** The server as the browser sees it: answers scripted per path, every call recorded. */
function fakeServer(script: Record<string, Answer[]>) {
  const calls: string[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input);
    calls.push(`${init?.method ?? 'GET'} ${path}`);
    const answer = script[path]?.shift();
    if (!answer) throw new Error(`unexpected ${path}`);
    if (answer === 'offline') throw new TypeError('Failed to fetch');
    return new Response(JSON.stringify(answer.body ?? {}), { status: answer.status, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

function SignedInArea() {
  const signedIn = useSignedIn();
  return <p>{signedIn ? `Signed in as ${signedIn.user.email}` : 'Loading'}</p>;
}

function renderWebapp() {
  const router = createMemoryRouter(
    [
      { path: '/roots/webapp', Component: SignedInArea },
      { path: '/roots/sign-in', Component: () => <h1>Sign-in screen</h1> },
    ],
    { initialEntries: ['/roots/webapp'] },
  );
  render(
    <PublicConfigProvider config={{ slug: 'roots', productName: 'Roots' } as PublicConfig}>
      <RouterProvider router={router} />
    </PublicConfigProvider>,
  );
  return router;
}

describe('useSignedIn (the signed-in area guard)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: START, shouldAdvanceTime: false });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('a visitor (401) is signed out and sent to sign-in', async () => {
    const calls = fakeServer({
      '/api/account/me': [json(401, { error: 'user-token-expired', code: 'UNAUTHORIZED' })],
      '/api/auth/sign-out': [json(200)],
    });
    const router = renderWebapp();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10);
    });
    expect(router.state.location.pathname).toBe('/roots/sign-in');
    expect(calls).toEqual(['GET /api/account/me', 'POST /api/auth/sign-out']);
  });

  it('a failed read (offline) signs nobody out: tried 3 more times at once (§9), then again after 30 s', async () => {
    const calls = fakeServer({ '/api/account/me': ['offline', 'offline', 'offline', 'offline', json(200, me(60))] });
    const router = renderWebapp();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(29_000);
    });
    expect(screen.getByText('Loading')).toBeTruthy();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1_000);
    });
    expect(screen.getByText('Signed in as ada@example.com')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/roots/webapp');
    expect(calls).toEqual(Array(5).fill('GET /api/account/me'));
  });

  it('refreshes before the session ends, and signs out when the refresh says the user is disabled', async () => {
    const calls = fakeServer({
      '/api/account/me': [json(200, me(20))],
      '/api/auth/refresh-session': [
        json(200, { session_expires_at: new Date(START.getTime() + 80 * MINUTE_MS).toISOString() }),
        json(401, { code: 'user-disabled', message: 'user-disabled' }),
      ],
      '/api/auth/sign-out': [json(200)],
    });
    const router = renderWebapp();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(14.5 * MINUTE_MS);
    });
    expect(calls).toEqual(['GET /api/account/me', 'POST /api/auth/refresh-session']);
    expect(router.state.location.pathname).toBe('/roots/webapp');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(60 * MINUTE_MS);
    });
    expect(calls.slice(2)).toEqual(['POST /api/auth/refresh-session', 'POST /api/auth/sign-out']);
    expect(router.state.location.pathname).toBe('/roots/sign-in');
  });

  it('a signed-in user without a purchase is signed out too', async () => {
    const calls = fakeServer({ '/api/account/me': [json(200, me(60, false))], '/api/auth/sign-out': [json(200)] });
    const router = renderWebapp();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10);
    });
    expect(router.state.location.pathname).toBe('/roots/sign-in');
    expect(calls).toContain('POST /api/auth/sign-out');
  });
});
