import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a hosted page's token says: the page may open, its link is too old, or it is no token of ours. */
export type PageTokenCheck = 'valid' | 'expired' | 'invalid';

/**
 * Capability tokens of the hosted pages (3-D Secure, hosted payment page, pix): the page URL
 * carries `t=<expiry>.<HMAC(secret, "page:<executionId>:<expiry>")>` (expiry in seconds since the
 * epoch, base 36), so only whoever received the execution's links can open or complete its page —
 * no bearer token is needed inside the popup — and only until the link expires (issue 32). Every
 * view of the execution and every page render signs a fresh one.
 */
export class PageTokens {
  /** @param ttlMs how long a signed link opens its page */
  constructor(
    private readonly secret: string,
    private readonly ttlMs: number,
  ) {}

  sign(executionId: string): string {
    const expiry = Math.ceil((Date.now() + this.ttlMs) / 1_000).toString(36);
    return `${expiry}.${this.mac(executionId, expiry)}`;
  }

  check(executionId: string, token: unknown): PageTokenCheck {
    if (typeof token !== 'string') return 'invalid';
    const [expiry = '', mac = '', ...rest] = token.split('.');
    if (rest.length > 0 || !/^[0-9a-z]{1,10}$/.test(expiry)) return 'invalid';
    const expected = Buffer.from(this.mac(executionId, expiry));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
    return Number.parseInt(expiry, 36) * 1_000 > Date.now() ? 'valid' : 'expired';
  }

  private mac(executionId: string, expiry: string): string {
    return createHmac('sha256', this.secret).update(`page:${executionId}:${expiry}`).digest('base64url').slice(0, 32);
  }
}
