import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureSubscriptionService } from '../../../lib/subscription-service';
import { initSession } from './init-session';

const URLS = { production: 'https://api.roots.example', staging: 'https://api.staging.roots.example/' };
const answer = () => new Response(JSON.stringify({ sessionId: 's' }), { status: 200, headers: { 'content-type': 'application/json' } });

afterEach(() => {
  vi.unstubAllGlobals();
  configureSubscriptionService(undefined, window.location.origin);
});

/** The paywall's own `initSession` goes where the subscription service is configured (product-spec §7). */
describe('initSession', () => {
  it('a call goes to the configured staging service, with its cookies', async () => {
    const fetchMock = vi.fn(async () => answer());
    vi.stubGlobal('fetch', fetchMock);
    configureSubscriptionService(URLS, 'https://dev.roots.example');
    await initSession('roots_3d1_7d2499');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('https://api.staging.roots.example/init/session');
    expect(init).toMatchObject({ method: 'POST', credentials: 'include', body: '{"plan_id":"roots_3d1_7d2499"}' });
  });

  it('a same-origin call keeps the browser’s default credentials', async () => {
    const fetchMock = vi.fn(async () => answer());
    vi.stubGlobal('fetch', fetchMock);
    await initSession('roots_3d1_7d2499');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/init/session');
    expect(init).not.toHaveProperty('credentials');
  });

  it('names the email the funnel collected, for the record of a declined payment', async () => {
    const fetchMock = vi.fn(async () => answer());
    vi.stubGlobal('fetch', fetchMock);
    await initSession('roots_3d1_7d2499', 'jane@example.com');
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toEqual({ plan_id: 'roots_3d1_7d2499', email: 'jane@example.com' });
  });
});
