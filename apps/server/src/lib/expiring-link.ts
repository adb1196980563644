import { signToken, verifyToken } from './signed-token';

const DAY_MS = 86_400_000;

/** What an emailed one-click link names (a uuid), and until when it works. */
export type ExpiringLink = { id: string; expiresAt: Date };

/** A uuid in 22 characters (its 16 bytes in base64url): the link stays within one URL path segment's limit. */
const packUuid = (id: string) => Buffer.from(id.replace(/-/g, ''), 'hex').toString('base64url');
function unpackUuid(packed: string): string | undefined {
  const hex = Buffer.from(packed, 'base64url').toString('hex');
  if (hex.length !== 32) return undefined;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The token of a link for `purpose` that names the uuid `id` and works `ttlDays` from `now`. The
 * purpose is signed in: a token proves only what it was issued for (a cancel link is no update-card link).
 */
export function expiringLinkToken(secret: string, purpose: string, id: string, ttlDays: number, now: Date): string {
  const expires = Math.floor((now.getTime() + ttlDays * DAY_MS) / 1000);
  return signToken(secret, purpose, `${packUuid(id.toLowerCase())}.${expires.toString(36)}`);
}

/** What a link for `purpose` names, expired or not; undefined when it is forged, of another purpose or malformed. */
export function readExpiringLink(secret: string, purpose: string, token: string): ExpiringLink | undefined {
  const value = verifyToken(secret, purpose, token);
  const match = value ? /^([\w-]{22})\.([0-9a-z]{1,12})$/.exec(value) : null;
  const id = match?.[1] ? unpackUuid(match[1]) : undefined;
  if (!id || !match?.[2]) return undefined;
  return { id, expiresAt: new Date(parseInt(match[2], 36) * 1000) };
}

/** The uuid a link for `purpose` names while it is valid at `now`; undefined when forged or expired. */
export function liveExpiringLink(secret: string, purpose: string, token: string, now: Date): string | undefined {
  const link = readExpiringLink(secret, purpose, token);
  return link && link.expiresAt.getTime() > now.getTime() ? link.id : undefined;
}
