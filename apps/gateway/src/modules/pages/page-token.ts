import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Capability tokens of the hosted pages (3-D Secure, hosted payment page, pix): the page URL
 * carries `t=HMAC(secret, "page:<executionId>")`, so only whoever received the execution's links
 * can open or complete its page — no bearer token is needed inside the popup.
 */
export class PageTokens {
  constructor(private readonly secret: string) {}

  sign(executionId: string): string {
    return createHmac('sha256', this.secret).update(`page:${executionId}`).digest('base64url').slice(0, 32);
  }

  verify(executionId: string, token: unknown): boolean {
    if (typeof token !== 'string') return false;
    const expected = Buffer.from(this.sign(executionId));
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
