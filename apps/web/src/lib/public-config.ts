import { APP_VERSION, DEFAULT_PRODUCT_COPY, publicConfigSchema, type PublicConfig } from '@roots/contracts';

/** Used only by the Vite dev server when no server injected the config. */
const DEV_FALLBACK: PublicConfig = {
  slug: 'roots',
  productName: 'Roots',
  version: APP_VERSION,
  copy: DEFAULT_PRODUCT_COPY,
  gatewayOrigin: 'http://127.0.0.1:4000',
  trackingEnabled: false,
  links: { cookies: '/legal/cookies', privacy: '/legal/privacy', terms: '/legal/terms' },
};

/** Reads the public config the server put into index.html (`#roots-config`). */
export function readPublicConfig(doc: Document = document): PublicConfig {
  const element = doc.getElementById('roots-config');
  if (!element?.textContent) return DEV_FALLBACK;
  return publicConfigSchema.parse(JSON.parse(element.textContent));
}
