import { createChallenge, verifySolution, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/pbkdf2';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorMessage, getPlans, postJson, request, RequestError, sendJson } from './api-client';

const answer = (status: number, body: unknown) =>
  new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('api-client: one way to call the server', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends JSON and resolves the parsed answer', async () => {
    const fetchMock = vi.fn(async () => answer(200, { id: 'sub_1' }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(postJson<{ id: string }>('/subs/create-no-user', { plan_id: 'p' })).resolves.toEqual({ id: 'sub_1' });
    expect(fetchMock).toHaveBeenCalledWith('/subs/create-no-user', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"plan_id":"p"}',
      signal: null,
    });
  });

  it('under pressure, solves the checkout challenge once and sends the request again with its proof (ADR 160)', async () => {
    const secret = 'a-test-secret-for-the-challenge-signature';
    const challenge = await createChallenge({ algorithm: 'PBKDF2/SHA-256', cost: 10, counter: 20, deriveKey, hmacSignatureSecret: secret });
    const fetchMock = vi.fn(async (_url: string, init: RequestInit) =>
      (init.headers as Record<string, string> | undefined)?.['x-checkout-proof']
        ? answer(200, { sessionId: 's_1' })
        : answer(429, { error: 'Many checkouts', code: 'CHALLENGE_REQUIRED', challenge }),
    );
    vi.stubGlobal('fetch', fetchMock);
    await expect(postJson('/init/session', { plan_id: 'p' })).resolves.toEqual({ sessionId: 's_1' });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    const retried = fetchMock.mock.calls[1]![1];
    expect(retried.body).toBe('{"plan_id":"p"}');
    const proof = JSON.parse(atob((retried.headers as Record<string, string>)['x-checkout-proof']!)) as {
      challenge: Challenge;
      solution: Solution;
    };
    const verdict = await verifySolution({ challenge: proof.challenge, solution: proof.solution, deriveKey, hmacSignatureSecret: secret });
    expect(verdict.verified).toBe(true);
  });

  it('asks for work only once: a second refusal is the answer', async () => {
    const challenge = await createChallenge({
      algorithm: 'PBKDF2/SHA-256',
      cost: 10,
      counter: 5,
      deriveKey,
      hmacSignatureSecret: 'x'.repeat(32),
    });
    const fetchMock = vi.fn(async () => answer(429, { error: 'Many checkouts', code: 'CHALLENGE_REQUIRED', challenge }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(postJson('/init/session', {})).rejects.toMatchObject({ code: 'CHALLENGE_REQUIRED', status: 429 });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('sends no body when there is none (DELETE /api/account)', async () => {
    const fetchMock = vi.fn(async () => answer(200, { deleted: true }));
    vi.stubGlobal('fetch', fetchMock);
    await sendJson('DELETE', '/api/account');
    expect(fetchMock).toHaveBeenCalledWith('/api/account', { method: 'DELETE', signal: null });
  });

  it("turns the server's { error, code } into a RequestError with its status, and anything else into a generic one", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer(404, { error: 'No subscriptions', code: 'NOT_FOUND' })),
    );
    const failure = await request('/api/cancel', { method: 'POST', body: {} }).catch((reason: unknown) => reason);
    expect(failure).toBeInstanceOf(RequestError);
    expect(failure).toMatchObject({ message: 'No subscriptions', code: 'NOT_FOUND', status: 404 });
    expect(errorMessage(failure)).toBe('No subscriptions');

    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer(502, '<html>bad gateway</html>')),
    );
    await expect(getPlans()).rejects.toMatchObject({ message: 'Request failed with status code 502', code: 'HTTP_ERROR', status: 502 });
    expect(errorMessage(new Error('bug'))).toBe('Something went wrong');
  });

  it('reports no answer as a network error, but rethrows an abort the caller asked for', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(getPlans()).rejects.toMatchObject({ message: 'Network Error', code: 'NETWORK_ERROR', status: 0 });
    const controller = new AbortController();
    controller.abort();
    const aborted = new DOMException('aborted', 'AbortError');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(aborted)),
    );
    await expect(getPlans(controller.signal)).rejects.toBe(aborted);
  });
});
