import { describe, expect, it, vi } from 'vitest';
import { GatewayClient } from './gateway-client';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('GatewayClient', () => {
  it('sends the bearer token, client headers and an idempotency key on POST', async () => {
    const fetch = vi.fn(async (_url: string | URL | Request, _init?: RequestInit) => json(200, { status: 'authorizeRequested' }));
    const client = new GatewayClient({ getToken: async () => 'tok', fetch: fetch as typeof globalThis.fetch, newKey: () => 'key-1' });
    await client.authorize('https://gw/a', { amount: { value: 1, currency: 'USD' }, paymentComposition: [] as never });
    const headers = fetch.mock.calls[0]?.[1]?.headers as Record<string, string>;
    expect(headers).toMatchObject({
      authorization: 'Bearer tok',
      'x-client-version': '5.26.0',
      'x-client-type': 'web',
      'idempotency-key': 'key-1',
    });
    await client.getExecution('https://gw/x');
    expect((fetch.mock.calls[1]?.[1]?.headers as Record<string, string>)['idempotency-key']).toBeUndefined();
  });

  it.each([
    [401, 'UNAUTHORIZED', 'API token is not valid or expired.'],
    [403, 'UNAUTHORIZED', 'API token is not valid or expired.'],
    [429, 'TOO_MANY_REQUESTS', 'Too many requests'],
    [422, 'UNSUCCESSFUL_REQUEST', 'Amount differs'],
  ])('maps %i to %s', async (status, code, message) => {
    const onUnauthorized = vi.fn();
    const client = new GatewayClient({
      getToken: async () => 't',
      onUnauthorized,
      fetch: (async () => json(status, { error: 'Amount differs', code: 'X' })) as typeof fetch,
    });
    await expect(client.getExecution('https://gw/x')).rejects.toMatchObject({ code, message, status });
    expect(onUnauthorized).toHaveBeenCalledTimes(code === 'UNAUTHORIZED' ? 1 : 0);
  });

  it('a 401 refreshes once and retries the call with the fresh token and the same idempotency key', async () => {
    const seen: Array<{ token: string; key: string | undefined }> = [];
    const fetch = vi.fn(async (_url: string | URL | Request, init?: RequestInit) => {
      const headers = init?.headers as Record<string, string>;
      seen.push({ token: headers.authorization ?? '', key: headers['idempotency-key'] });
      return headers.authorization === 'Bearer fresh' ? json(200, { status: 'authorizeRequested' }) : json(401, { error: 'expired' });
    });
    const onUnauthorized = vi.fn(async (refused: string | undefined) => (refused === 'stale' ? 'fresh' : undefined));
    const client = new GatewayClient({
      getToken: async () => 'stale',
      onUnauthorized,
      fetch: fetch as typeof globalThis.fetch,
      newKey: () => 'k1',
    });
    await expect(
      client.authorize('https://gw/a', { amount: { value: 1, currency: 'USD' }, paymentComposition: [] as never }),
    ).resolves.toEqual({
      status: 'authorizeRequested',
    });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(seen).toEqual([
      { token: 'Bearer stale', key: 'k1' },
      { token: 'Bearer fresh', key: 'k1' },
    ]);
  });

  it('gives up after one refresh: a refresh with nothing, or a second 401, is UNAUTHORIZED', async () => {
    const always401 = async (): Promise<Response> => json(401, { error: 'expired' });
    const nothing = vi.fn(async () => undefined);
    await expect(
      new GatewayClient({ getToken: async () => 't', onUnauthorized: nothing, fetch: always401 as typeof globalThis.fetch }).getExecution(
        'https://gw/x',
      ),
    ).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
    const fresh = vi.fn(async () => 'fresh');
    const fetchMock = vi.fn(always401);
    await expect(
      new GatewayClient({ getToken: async () => 't', onUnauthorized: fresh, fetch: fetchMock as typeof globalThis.fetch }).listInstruments(
        'https://gw/i',
      ),
    ).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(fresh).toHaveBeenCalledTimes(1);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('every call raises the expiry on a 401: instruments, BIN lookup, countries, wallets', async () => {
    const onUnauthorized = vi.fn(async () => undefined);
    const client = new GatewayClient({ getToken: async () => 't', onUnauthorized, fetch: (async () => json(401, {})) as typeof fetch });
    await expect(client.listInstruments('https://gw/i')).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(client.binLookup('https://gw/b', '42424242')).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(client.countries('https://gw/assets/countries.json')).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(client.request('https://gw/v1/wallets/apple-pay/session', { body: {} })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(onUnauthorized).toHaveBeenCalledTimes(4);
  });

  it('maps a failed fetch to Network Error and a non-JSON body to a generic message', async () => {
    const down = new GatewayClient({
      getToken: async () => 't',
      fetch: (async () => Promise.reject(new TypeError('fail'))) as typeof fetch,
    });
    await expect(down.getExecution('https://gw/x')).rejects.toMatchObject({ code: 'NETWORK_ERROR', message: 'Network Error' });
    const html = new GatewayClient({
      getToken: async () => 't',
      fetch: (async () => new Response('<html>', { status: 500 })) as typeof fetch,
    });
    await expect(html.getExecution('https://gw/x')).rejects.toMatchObject({
      code: 'UNSUCCESSFUL_REQUEST',
      message: 'Request failed with status code 500',
    });
  });

  it('refuses to save an instrument without a URL', async () => {
    const client = new GatewayClient({ getToken: async () => 't' });
    await expect(client.saveInstrument(undefined, {} as never)).rejects.toMatchObject({
      code: 'SAVE_INSTRUMENT_URL_NOT_AVAILABLE',
      message: 'Save instrument URL not available!',
    });
  });

  it('maps countries by code', async () => {
    const client = new GatewayClient({
      getToken: async () => 't',
      fetch: (async () => json(200, [{ code: 'US', name: 'United States' }])) as typeof fetch,
    });
    expect((await client.countries('https://gw/c')).get('US')?.name).toBe('United States');
    const limited = new GatewayClient({ getToken: async () => 't', fetch: (async () => json(429, {})) as typeof fetch });
    await expect(limited.countries('https://gw/c')).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS' });
  });
});
