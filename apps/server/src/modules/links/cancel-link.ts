import { expiringLinkToken, liveExpiringLink, readExpiringLink } from '../../lib/expiring-link';

/**
 * How long an emailed one-click cancel link works (issue 22). Every receipt, renewal receipt, trial
 * reminder and purchases email carries a fresh one; an expired link opens the cancel page, which
 * cancels by an emailed code or by signing in, so cancelling stays as easy as buying.
 */
export const CANCEL_LINK_TTL_DAYS = 30;
/** Its own purpose: a cancel link proves nothing else (not a purchase, not a sign-in). */
const PURPOSE = 'cancel-link';

export type CancelLink = { subscriptionId: string; expiresAt: Date };

/** The token of the one-click cancel link of `subscriptionId`, issued at `now`. */
export function cancelLinkToken(secret: string, subscriptionId: string, now: Date): string {
  return expiringLinkToken(secret, PURPOSE, subscriptionId, CANCEL_LINK_TTL_DAYS, now);
}

/** What a cancel link names, expired or not; undefined when it is forged, of another purpose or malformed. */
export function readCancelLink(secret: string, token: string): CancelLink | undefined {
  const link = readExpiringLink(secret, PURPOSE, token);
  return link && { subscriptionId: link.id, expiresAt: link.expiresAt };
}

/** The subscription a cancel link names while it is valid at `now`; undefined when forged or expired. */
export function liveCancelLink(secret: string, token: string, now: Date): string | undefined {
  return liveExpiringLink(secret, PURPOSE, token, now);
}

/** The one-click cancel URL every receipt, reminder and notice carries, issued at `now`. */
export function cancelUrl(config: { APP_SECRET: string; publicUrl: string }, subscriptionId: string, now: Date): string {
  return `${config.publicUrl}/api/cancel-subscription/${cancelLinkToken(config.APP_SECRET, subscriptionId, now)}`;
}
