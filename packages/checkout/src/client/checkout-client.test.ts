// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SdkInitPayload } from '@roots/contracts/gateway';
import { initCheckout } from './checkout-client';

const jwt = (expSeconds: number) => `h.${btoa(JSON.stringify({ exp: expSeconds })).replace(/=+$/, '')}.s`;
const later = () => Math.floor(Date.now() / 1000) + 600;
const session = {
  gatewayOrigin: 'https://gw.example',
  vaultURL: 'https://gw.example/vault',
  bearerToken: jwt(later()),
  amount: { value: 2499, currency: 'USD' },
  paymentMethods: [],
  links: { instruments: 'https://gw.example/v1/instruments', tokenize: 'https://gw.example/vault/v1/tokens' },
} as unknown as SdkInitPayload;

afterEach(() => vi.unstubAllGlobals());

describe('session expiry through the client (checkout-spec §4 "Bearer token")', () => {
  it('a 401 raises sessionExpired, asks the merchant callback once, and the call succeeds with the fresh token', async () => {
    const fresh = jwt(later() + 60);
    const sent: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        const authorization = (init.headers as Record<string, string>).authorization ?? '';
        sent.push(authorization);
        return authorization === `Bearer ${fresh}`
          ? new Response(JSON.stringify({ items: [] }), { status: 200 })
          : new Response(JSON.stringify({ error: 'expired' }), { status: 401 });
      }),
    );
    const getBearerToken = vi.fn(async () => fresh);
    const client = initCheckout({ session, getBearerToken });
    const expired = vi.fn();
    client.on('sessionExpired', expired);
    await expect(client.context.api.listInstruments(session.links.instruments)).resolves.toEqual([]);
    expect(expired).toHaveBeenCalledTimes(1);
    expect(getBearerToken).toHaveBeenCalledTimes(1);
    expect(sent).toEqual([`Bearer ${session.bearerToken}`, `Bearer ${fresh}`]);
  });

  it('a refresh that returns nothing logs the refresh-failed error and the call fails unauthorized', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{}', { status: 401 })),
    );
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const client = initCheckout({ session, getBearerToken: () => undefined });
    await expect(client.context.api.listInstruments(session.links.instruments)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(logged.mock.calls.some((call) => String(call[0]).includes('Session refresh failed'))).toBe(true);
    logged.mockRestore();
  });
});

describe('preloading (checkout-spec §7)', () => {
  it('fetches the card frames’ scripts and html ahead of the mount, once, and stores the SDK version', () => {
    initCheckout({ session, getBearerToken: () => undefined });
    initCheckout({ session, getBearerToken: () => undefined });
    const links = [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="preload"], link[rel="prefetch"]')].map((link) => [
      link.rel,
      link.href,
      link.crossOrigin,
    ]);
    // Scripts in CORS mode (module scripts; the gateway allows it), frame pages as plain requests.
    expect(links).toEqual([
      ['preload', 'https://gw.example/secure-fields/v1/card-number.js', 'anonymous'],
      ['prefetch', 'https://gw.example/secure-fields/v1/card-number.html', null],
      ['preload', 'https://gw.example/secure-fields/v1/expiry-date.js', 'anonymous'],
      ['prefetch', 'https://gw.example/secure-fields/v1/expiry-date.html', null],
      ['preload', 'https://gw.example/secure-fields/v1/cvv.js', 'anonymous'],
      ['prefetch', 'https://gw.example/secure-fields/v1/cvv.html', null],
    ]);
    expect(window.localStorage.getItem('roots-checkout:version')).toBe('5.26.0');
  });
});
