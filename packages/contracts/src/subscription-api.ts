/**
 * Where the page sends the subscription service's calls (product-spec §7: `/init/session`,
 * `/subs/*`, `/rec/subscriptions/*`). Zod-free: the paywall's first paint loads it (ADR 081).
 */

/** Base URLs of the subscription service; '' is the page's own origin. */
export type SubscriptionApiUrls = { production: string; staging: string };

/**
 * Base URL of the subscription service for a page origin: staging when the origin contains
 * 'dev' (product-spec §7), production otherwise; without a trailing slash.
 * @example subscriptionApiBaseUrl('https://dev.roots.example', { production: 'https://api.roots.example', staging: 'https://api.dev.roots.example' })
 */
export function subscriptionApiBaseUrl(origin: string, urls: SubscriptionApiUrls): string {
  return (origin.includes('dev') ? urls.staging : urls.production).replace(/\/$/, '');
}
