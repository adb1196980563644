import { createHash } from 'node:crypto';

/** Lower-cases and trims an email so one address is one key everywhere. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * An email as it may appear in logs: never in clear. A short hash lets lines be correlated.
 * @example maskEmail('jane@example.com') // 'j***@example.com#1f2e3d4c'
 */
export function maskEmail(email: string): string {
  const normalized = normalizeEmail(email);
  const [local = '', domain = ''] = normalized.split('@');
  const hash = createHash('sha256').update(normalized).digest('hex').slice(0, 8);
  return `${local.slice(0, 1)}***@${domain}#${hash}`;
}

/** Opaque, stable gateway holder reference for an email (the gateway never sees the address). */
export function holderReferenceFor(email: string, secret: string): string {
  return `h_${createHash('sha256')
    .update(`${secret}:holder:${normalizeEmail(email)}`)
    .digest('base64url')
    .slice(0, 32)}`;
}
