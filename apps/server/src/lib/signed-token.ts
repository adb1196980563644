import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Compact signed tokens for one-click links: `<payload>.<hmac>` in base64url. Small on purpose:
 * the link carries a purpose and an id, nothing secret.
 * @example signToken(secret, 'cancel', id) // 'Y2FuY2VsOj...'
 */
export function signToken(secret: string, purpose: string, value: string): string {
  const payload = Buffer.from(`${purpose}:${value}`).toString('base64url');
  const mac = createHmac('sha256', secret).update(payload).digest('base64url').slice(0, 32);
  return `${payload}.${mac}`;
}

/** The value of a token made by {@link signToken} for `purpose`, or undefined when forged or foreign. */
export function verifyToken(secret: string, purpose: string, token: string): string | undefined {
  const [payload, mac] = token.split('.');
  if (!payload || !mac || token.length > 512) return undefined;
  const expected = createHmac('sha256', secret).update(payload).digest('base64url').slice(0, 32);
  if (mac.length !== expected.length || !timingSafeEqual(Buffer.from(mac), Buffer.from(expected))) return undefined;
  const decoded = Buffer.from(payload, 'base64url').toString('utf8');
  return decoded.startsWith(`${purpose}:`) ? decoded.slice(purpose.length + 1) : undefined;
}
