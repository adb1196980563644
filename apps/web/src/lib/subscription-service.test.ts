import { afterEach, describe, expect, it, vi } from 'vitest';
import { postJson } from './api-client';
import { configureSubscriptionService, subscriptionServiceUrl } from './subscription-service';

const URLS = { production: 'https://api.roots.example', staging: 'https://api.staging.roots.example/' };
const answer = () => new Response(JSON.stringify({ sessionId: 's' }), { status: 200, headers: { 'content-type': 'application/json' } });

afterEach(() => {
  vi.unstubAllGlobals();
  configureSubscriptionService(undefined, window.location.origin);
});

describe('the subscription service the page calls (product-spec §7)', () => {
  it('is the staging URL for a page whose origin contains dev, the production URL otherwise', () => {
    configureSubscriptionService(URLS, 'https://dev.roots.example');
    expect(subscriptionServiceUrl('/subs/create-no-user')).toBe('https://api.staging.roots.example/subs/create-no-user');
    configureSubscriptionService(URLS, 'https://roots.example');
    expect(subscriptionServiceUrl('/subs/create-no-user')).toBe('https://api.roots.example/subs/create-no-user');
  });

  it('stays on the page’s own origin when nothing is configured, or the environment’s URL is empty', () => {
    configureSubscriptionService(undefined, 'https://dev.roots.example');
    expect(subscriptionServiceUrl('/init/session')).toBe('/init/session');
    configureSubscriptionService({ production: 'https://api.roots.example', staging: '' }, 'https://dev.roots.example');
    expect(subscriptionServiceUrl('/init/session')).toBe('/init/session');
  });

  /** The paywall's `initSession` (features/paywall/api/init-session.ts) in the words lib may use. */
  const initSession = (planId: string) => postJson(subscriptionServiceUrl('/init/session'), { plan_id: planId });

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
});
