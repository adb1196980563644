import { signToken, verifyToken } from '../../lib/signed-token';

/**
 * How long an emailed one-click cancel link works (issue 22). Every receipt, renewal receipt, trial
 * reminder and purchases email carries a fresh one; an expired link opens the cancel page, which
 * cancels by an emailed code or by signing in, so cancelling stays as easy as buying.
 */
export const CANCEL_LINK_TTL_DAYS = 30;
const DAY_MS = 86_400_000;
/** Its own purpose: a cancel link proves nothing else (not a purchase, not a sign-in). */
const PURPOSE = 'cancel-link';

export type CancelLink = { subscriptionId: string; expiresAt: Date };

/** A uuid in 22 characters (its 16 bytes in base64url): the link stays within one URL path segment's limit. */
const packUuid = (id: string) => Buffer.from(id.replace(/-/g, ''), 'hex').toString('base64url');
function unpackUuid(packed: string): string | undefined {
  const hex = Buffer.from(packed, 'base64url').toString('hex');
  if (hex.length !== 32) return undefined;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The token of the one-click cancel link of `subscriptionId`, issued at `now`. */
export function cancelLinkToken(secret: string, subscriptionId: string, now: Date): string {
  const expires = Math.floor((now.getTime() + CANCEL_LINK_TTL_DAYS * DAY_MS) / 1000);
  return signToken(secret, PURPOSE, `${packUuid(subscriptionId.toLowerCase())}.${expires.toString(36)}`);
}

/** What a cancel link names, expired or not; undefined when it is forged, of another purpose or malformed. */
export function readCancelLink(secret: string, token: string): CancelLink | undefined {
  const value = verifyToken(secret, PURPOSE, token);
  const match = value ? /^([\w-]{22})\.([0-9a-z]{1,12})$/.exec(value) : null;
  const subscriptionId = match?.[1] ? unpackUuid(match[1]) : undefined;
  if (!subscriptionId || !match?.[2]) return undefined;
  return { subscriptionId, expiresAt: new Date(parseInt(match[2], 36) * 1000) };
}

/** The subscription a cancel link names while it is valid at `now`; undefined when forged or expired. */
export function liveCancelLink(secret: string, token: string, now: Date): string | undefined {
  const link = readCancelLink(secret, token);
  return link && link.expiresAt.getTime() > now.getTime() ? link.subscriptionId : undefined;
}

/** The one-click cancel URL every receipt, reminder and notice carries, issued at `now`. */
export function cancelUrl(config: { APP_SECRET: string; publicUrl: string }, subscriptionId: string, now: Date): string {
  return `${config.publicUrl}/api/cancel-subscription/${cancelLinkToken(config.APP_SECRET, subscriptionId, now)}`;
}
