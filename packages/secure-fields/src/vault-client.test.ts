import { describe, expect, it, vi } from 'vitest';
import { deviceModel, formEntries, skyMetadata, tokenize, vaultErrorFrom, vaultRequest } from './vault-client';

const card = { cardNumber: '4242424242424242', expiryMonth: '12', expiryYear: '2034', cvv: '123' };
const context = { token: 'tok', idempotencyKey: 'k1', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140' };

describe('vault client', () => {
  it('posts with bearer, idempotency key, client headers and sky-metadata', async () => {
    const fetch = vi.fn(async (_url: string | URL | Request, _init?: RequestInit) =>
      Response.json({ token: 'vt', network: 'visa', bin: '42424242', last4: '4242', expiresAt: 'x' }, { status: 201 }),
    );
    const answer = await tokenize('https://gw/vault/v1/tokens', card, { ...context, fetch: fetch as typeof globalThis.fetch });
    expect(answer).toMatchObject({ ok: true, result: { token: 'vt' } });
    const headers = fetch.mock.calls[0]?.[1]?.headers as Record<string, string>;
    expect(headers).toMatchObject({
      authorization: 'Bearer tok',
      'idempotency-key': 'k1',
      'x-client-version': '5.26.0',
      'x-client-type': 'secure-fields',
    });
    expect(JSON.parse(headers['sky-metadata']!)).toMatchObject({
      sdk_client_device_model: 'desktop',
      sdk_os_version: 'X11; Linux x86_64',
      // checkout-spec §9: the vault SDK in use is version 1.30.1.
      sdk_name_version: 'roots-secure-fields@1.30.1',
    });
  });
  it('describes errors with the server message and request id', async () => {
    const response = new Response(JSON.stringify({ error: 'Card number is invalid', code: 'CARD_INVALID' }), {
      status: 422,
      headers: { 'x-request-id': 'req-9' },
    });
    expect(await vaultErrorFrom(response)).toEqual({
      code: 'VAULT_NETWORK_ERROR',
      message: 'Card number is invalid - requestId: req-9',
      status: 422,
    });
    expect(await vaultErrorFrom(new Response('<html>', { status: 502 }))).toMatchObject({
      message: 'Vault request failed with status 502',
    });
    expect(await vaultErrorFrom(new Response('plain failure', { status: 500 }))).toMatchObject({ message: 'plain failure' });
    expect(await vaultErrorFrom(new Response('{}', { status: 401 }))).toMatchObject({ code: 'INVALID_BEARER_TOKEN' });
  });
  it('reports a connection error when the request cannot be made', async () => {
    const answer = await tokenize('https://gw/vault/v1/tokens', card, {
      ...context,
      fetch: (async () => Promise.reject(new TypeError('x'))) as typeof fetch,
    });
    expect(answer).toMatchObject({ ok: false, error: { code: 'VAULT_CONNECTION_ERROR' } });
  });
  it('classifies devices', () => {
    expect(deviceModel('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Mobile')).toBe('mobile');
    expect(deviceModel('Mozilla/5.0 (iPad; CPU OS 17_0)')).toBe('tablet');
    expect(skyMetadata('Mozilla/5.0 (Linux; Android 14) Mobile é')).not.toMatch(/[^\x20-\x7e]/);
  });
});

describe('vault request body as the caller asks (checkout-spec §7)', () => {
  const body = { records: [{ table: 'persons', fields: { email: 'ada@example.com', plan: 'weekly' } }], tokens: true };
  const answering = (response: () => Response) => vi.fn(async (_url: string | URL | Request, _init?: RequestInit) => response());

  it('JSON by default, answered JSON parsed', async () => {
    const fetch = answering(() => Response.json({ records: [] }));
    const answer = await vaultRequest(
      { url: 'https://gw/vault/v1/records', body },
      { ...context, fetch: fetch as typeof globalThis.fetch },
    );
    expect(answer).toEqual({ ok: true, result: { records: [] } });
    const init = fetch.mock.calls[0]![1]!;
    expect((init.headers as Record<string, string>)['content-type']).toBe('application/json');
    expect(JSON.parse(init.body as string)).toEqual(body);
  });

  it('form-url-encoded: nested fields as bracketed keys; a text answer stays text', async () => {
    const fetch = answering(() => new Response('stored', { headers: { 'content-type': 'text/plain' } }));
    const answer = await vaultRequest(
      { url: 'https://gw/vault/v1/records', body, method: 'PUT', contentType: 'application/x-www-form-urlencoded' },
      { ...context, fetch: fetch as typeof globalThis.fetch },
    );
    expect(answer).toEqual({ ok: true, result: 'stored' });
    const init = fetch.mock.calls[0]![1]!;
    expect(init.method).toBe('PUT');
    expect((init.headers as Record<string, string>)['content-type']).toBe('application/x-www-form-urlencoded');
    expect([...new URLSearchParams(init.body as string)]).toEqual([
      ['records[0][table]', 'persons'],
      ['records[0][fields][email]', 'ada@example.com'],
      ['records[0][fields][plan]', 'weekly'],
      ['tokens', 'true'],
    ]);
  });

  it('multipart: a form whose boundary fetch writes (no content-type header of our own)', async () => {
    const fetch = answering(() => Response.json({ records: [] }));
    await vaultRequest(
      { url: 'https://gw/vault/v1/records', body, contentType: 'multipart/form-data' },
      { ...context, fetch: fetch as typeof globalThis.fetch },
    );
    const init = fetch.mock.calls[0]![1]!;
    expect((init.headers as Record<string, string>)['content-type']).toBeUndefined();
    expect(init.body).toBeInstanceOf(FormData);
    expect((init.body as FormData).get('records[0][fields][email]')).toBe('ada@example.com');
  });

  it('flattens only defined values', () => {
    expect(formEntries({ a: { b: [1, null, 'x'] }, c: undefined })).toEqual([
      ['a[b][0]', '1'],
      ['a[b][2]', 'x'],
    ]);
  });
});
