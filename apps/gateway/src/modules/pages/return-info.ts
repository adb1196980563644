import type { ReturnInfo } from '@roots/contracts/gateway';
import { GatewayError } from '../../errors';

/**
 * Refuses return URLs the hosted pages must not send a shopper to (issue 32): each of `returnInfo`
 * must be on one of the merchant's page origins (GATEWAY_MERCHANT_ORIGINS). With `*` (local
 * experiments only, refused in production) any http(s) URL passes; another scheme never does
 * (a `javascript:` URL would run on the gateway's origin).
 * @throws GatewayError VALIDATION_ERROR (400) naming the field and the origin.
 */
export function assertReturnInfoAllowed(returnInfo: ReturnInfo | undefined, merchantOrigins: string[] | '*'): void {
  if (!returnInfo) return;
  for (const [outcome, url] of Object.entries(returnInfo)) {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
      throw new GatewayError('VALIDATION_ERROR', `returnInfo.${outcome}: must be an http(s) URL`);
    }
    if (merchantOrigins !== '*' && !merchantOrigins.includes(parsed.origin)) {
      throw new GatewayError(
        'VALIDATION_ERROR',
        `returnInfo.${outcome}: ${parsed.origin} is not one of the merchant's origins (GATEWAY_MERCHANT_ORIGINS)`,
      );
    }
  }
}
