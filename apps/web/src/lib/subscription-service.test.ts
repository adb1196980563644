import { describe, expect, it } from 'vitest';
import { configureSubscriptionService, subscriptionServiceUrl } from './subscription-service';

const URLS = { production: 'https://api.roots.example', staging: 'https://api.staging.roots.example/' };

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
});
