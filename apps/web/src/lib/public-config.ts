import type { PublicConfig } from '@roots/contracts';
import { APP_VERSION, DEFAULT_PRODUCT_COPY } from '@roots/contracts/product-defaults';

/** Used only where no server rendered the page: the unit tests in jsdom (the dev server injects the server's own config). */
const DEV_FALLBACK: PublicConfig = {
  slug: 'roots',
  productName: 'Roots',
  version: APP_VERSION,
  copy: DEFAULT_PRODUCT_COPY,
  gatewayOrigin: 'http://127.0.0.1:4000',
  trackingEnabled: false,
  guaranteeDays: 30,
  links: { cookies: '/roots/legal/cookies', privacy: '/roots/legal/privacy', terms: '/roots/legal/terms' },
  legal: { operatorName: 'Roots', operatorAddress: null, contactEmail: 'support@roots.local' },
};

/** Reads the public config the server put into index.html (`#roots-config`). */
export function readPublicConfig(doc: Document = document): PublicConfig {
  const element = doc.getElementById('roots-config');
  if (!element?.textContent) return DEV_FALLBACK;
  const config: unknown = JSON.parse(element.textContent);
  assertPublicConfig(config);
  return config;
}

const REQUIRED_STRINGS = ['slug', 'productName', 'version', 'gatewayOrigin'] as const;

/**
 * A shape check of the server-rendered config. The server validated it with the contracts schema;
 * this only refuses to run on a truncated or foreign blob (zod stays out of the landing bundle).
 */
function assertPublicConfig(value: unknown): asserts value is PublicConfig {
  const record = value as Record<string, unknown> | null;
  const ok =
    typeof record === 'object' &&
    record !== null &&
    REQUIRED_STRINGS.every((key) => typeof record[key] === 'string') &&
    typeof record.copy === 'object' &&
    typeof record.links === 'object' &&
    typeof record.legal === 'object' &&
    typeof record.trackingEnabled === 'boolean' &&
    typeof record.guaranteeDays === 'number';
  if (!ok) throw new Error('#roots-config is not a valid public config');
}
