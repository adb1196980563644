import { subscriptionApiBaseUrl, type SubscriptionApiUrls } from '@roots/contracts/subscription-api';

/** Base URL of the subscription service for this page; '' is the page's own origin. */
let baseUrl = '';

/**
 * Chooses the subscription service once at start-up from the public config (SUBSCRIPTION_API_URL,
 * SUBSCRIPTION_API_STAGING_URL): staging when the page's origin contains 'dev' (product-spec §7).
 * Without the setting every call stays on the page's own origin.
 * @example configureSubscriptionService(config.subscriptionApi, window.location.origin)
 */
export function configureSubscriptionService(urls: SubscriptionApiUrls | undefined, pageOrigin: string): void {
  baseUrl = urls ? subscriptionApiBaseUrl(pageOrigin, urls) : '';
}

/**
 * The URL of a subscription-service call (`/init/session`, `/subs/*`, `/rec/subscriptions/*`).
 * @example postJson(subscriptionServiceUrl('/subs/create-no-user'), body)
 */
export function subscriptionServiceUrl(path: `/${string}`): string {
  return `${baseUrl}${path}`;
}
