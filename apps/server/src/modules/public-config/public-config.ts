import { APP_VERSION, type PublicConfig } from '@roots/contracts';
import type { Config } from '../../config/env';

export function buildPublicConfig(config: Config): PublicConfig {
  return {
    slug: config.PRODUCT_SLUG,
    productName: config.PRODUCT_NAME,
    version: APP_VERSION,
    copy: config.copy,
    gatewayOrigin: new URL(config.GATEWAY_URL).origin,
    trackingEnabled: config.TRACKING_ENABLED,
    links: { cookies: config.COOKIE_LINK, privacy: config.PRIVACY_LINK, terms: config.TERMS_LINK },
  };
}
