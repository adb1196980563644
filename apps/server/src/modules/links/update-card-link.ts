import type { Config } from '../../config/env';
import { expiringLinkToken, liveExpiringLink } from '../../lib/expiring-link';

/**
 * How long the update-card link of a failed-renewal email works: as long as a cancel link (the
 * retries of one renewal end well within it, issue 23), then the customer signs in instead.
 */
export const UPDATE_CARD_LINK_TTL_DAYS = 30;
/** Its own purpose: an update-card link proves nothing else (not a cancel link, not a sign-in). */
const PURPOSE = 'update-card';

/**
 * The signed link, issued at `now`, to the page where the customer replaces the card of
 * `subscriptionId`: `{publicUrl}/{slug}/update-card/{token}`. A secret of the email that carries it.
 */
export function updateCardUrl(
  config: Pick<Config, 'APP_SECRET' | 'publicUrl' | 'PRODUCT_SLUG'>,
  subscriptionId: string,
  now: Date,
): string {
  const token = expiringLinkToken(config.APP_SECRET, PURPOSE, subscriptionId, UPDATE_CARD_LINK_TTL_DAYS, now);
  return `${config.publicUrl}/${config.PRODUCT_SLUG}/update-card/${token}`;
}

/** The subscription an update-card link (its last path segment, `content`) names while valid at `now`; undefined when forged or expired. */
export function liveUpdateCardLink(secret: string, content: string, now: Date): string | undefined {
  return liveExpiringLink(secret, PURPOSE, content, now);
}
