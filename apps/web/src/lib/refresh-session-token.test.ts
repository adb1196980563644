import { afterEach, describe, expect, it, vi } from 'vitest';
import { refreshSessionToken } from './refresh-session-token';

afterEach(() => vi.unstubAllGlobals());

describe('refreshSessionToken (the checkout getBearerToken callback)', () => {
  it('trades the latest token of the session for a fresh one, every time', async () => {
    const sent: unknown[] = [];
    let issued = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        sent.push(JSON.parse(String(init.body)));
        issued += 1;
        return new Response(JSON.stringify({ bearerToken: `fresh-${issued}`, expiresAt: '2030-01-01T00:00:00.000Z' }), { status: 200 });
      }),
    );
    const session = { sessionId: 'ses_1', bearerToken: 'first' };
    expect(await refreshSessionToken(session)).toBe('fresh-1');
    expect(await refreshSessionToken(session)).toBe('fresh-2');
    expect(sent).toEqual([{ bearer_token: 'first' }, { bearer_token: 'fresh-1' }]);
    expect(vi.mocked(fetch).mock.calls[0]![0]).toBe('/init/session/token');
  });

  it('rejects when the server refuses, so the checkout logs the refresh failure', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ error: 'Something went wrong', code: 'UNAUTHORIZED' }), { status: 401 })),
    );
    await expect(refreshSessionToken({ sessionId: 'ses_2', bearerToken: 'x' })).rejects.toMatchObject({ status: 401 });
  });
});
