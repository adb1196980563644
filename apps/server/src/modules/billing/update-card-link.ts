import type { Config } from '../../config/env';
import { signToken, verifyToken } from '../../lib/signed-token';

/**
 * The update-card link of the payment-failed email (issue 23, ADR 141): it proves the subscription
 * is the reader's, for 30 days, and for nothing else (not a cancellation, not a sign-in). It opens
 * the web app's update-card page, which puts a new card on the subscription through the checkout's
 * card form.
 */
export const UPDATE_CARD_LINK_TTL_DAYS = 30;
const DAY_MS = 86_400_000;
const PURPOSE = 'update-card';

/** The 16 bytes of a uuid in base64url (22 characters), so the link is one short path segment. */
function compactId(id: string): string {
  return Buffer.from(id.toLowerCase().replace(/-/g, ''), 'hex').toString('base64url');
}

function uuidOf(compact: string): string | undefined {
  const hex = Buffer.from(compact, 'base64url').toString('hex');
  if (!/^[0-9a-f]{32}$/.test(hex)) return undefined;
  return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join('-');
}

/** The signed token of `subscriptionId`'s update-card link issued at `now` (valid {@link UPDATE_CARD_LINK_TTL_DAYS} days). */
function updateCardToken(secret: string, subscriptionId: string, now: Date): string {
  const expiresAtSeconds = Math.floor((now.getTime() + UPDATE_CARD_LINK_TTL_DAYS * DAY_MS) / 1000);
  return signToken(secret, PURPOSE, `${compactId(subscriptionId)}.${expiresAtSeconds.toString(36)}`);
}

/** The update-card page of `subscriptionId`: `${publicUrl}/${slug}/update-card/${token}`. */
export function updateCardUrl(
  config: Pick<Config, 'APP_SECRET' | 'publicUrl' | 'PRODUCT_SLUG'>,
  subscriptionId: string,
  now: Date,
): string {
  return `${config.publicUrl}/${config.PRODUCT_SLUG}/update-card/${updateCardToken(config.APP_SECRET, subscriptionId, now)}`;
}

/** The subscription id an update-card link names while it is valid at `now`; undefined when forged, foreign or expired. */
export function liveUpdateCardLink(secret: string, content: string, now: Date): string | undefined {
  const value = verifyToken(secret, PURPOSE, content);
  const match = value ? /^([\w-]{22})\.([0-9a-z]{1,12})$/.exec(value) : null;
  if (!match?.[1] || !match[2]) return undefined;
  const expiresAt = parseInt(match[2], 36) * 1000;
  return expiresAt > now.getTime() ? uuidOf(match[1]) : undefined;
}
