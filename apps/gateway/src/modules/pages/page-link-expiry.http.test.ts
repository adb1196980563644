import { createHmac } from 'node:crypto';
import type { Execution, SdkInitPayload } from '@roots/contracts/gateway';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEV_DEFAULT_SECRETS } from '../../config/env';
import { authorize, call, createSession, merchantHeaders, postForm, RETURN_INFO, startGateway, type TestGateway } from '../../test/helpers';

/** GATEWAY_SESSION_TTL_SECONDS's default: a page link lives as long as a checkout session. */
const LINK_TTL_MS = 1_800_000;

/**
 * Issue 32: a hosted page's token never expired. Now a link opens its page for the checkout
 * session's lifetime; past it, the page says so (410) and changes nothing. Only `Date` is faked,
 * frozen at the start of each test and moved by hand, so nothing here waits.
 */
describe('hosted page links expire', () => {
  let gateway: TestGateway;
  let start: number;

  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(async () => {
    await gateway.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const freezeClock = () => {
    start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: start });
  };
  const at = (elapsedMs: number) => vi.setSystemTime(start + elapsedMs);
  const token = (href: string) => new URL(href).searchParams.get('t') ?? '';

  /** A generic-redirect payment waiting on its hosted page (it has no deadline of its own). */
  async function redirected(): Promise<{ session: SdkInitPayload; href: string }> {
    const session = await createSession(gateway);
    const pending = await authorize(session, {
      amount: session.amount,
      paymentComposition: [{ paymentMethodCode: 'genericRedirect', integrationType: 'hpp' }],
      returnInfo: RETURN_INFO,
    });
    expect(pending.body.status).toBe('authorizePending');
    return { session, href: pending.body.links.redirect ?? '' };
  }

  const merchantRead = async (id: string) =>
    (await call<Execution>(`${gateway.url}/merchant/v1/executions/${id}`, { headers: merchantHeaders() })).body;

  it('opens the page until the session lifetime, then answers 410 with a page saying so', async () => {
    freezeClock();
    const { href } = await redirected();
    at(LINK_TTL_MS - 1_000);
    const open = await call<string>(href);
    expect(open.status).toBe(200);
    expect(open.text).toContain('Pay with Roots Pay');
    at(LINK_TTL_MS + 1_000);
    const expired = await call<string>(href);
    expect(expired.status).toBe(410);
    expect(expired.headers.get('content-type')).toMatch(/^text\/html/);
    expect(expired.text).toContain('data-testid="expired"');
    expect(expired.text).toContain('This payment page has expired');
  });

  it('an expired link completes nothing; a fresh link from the execution opens the page again', async () => {
    freezeClock();
    const { session, href } = await redirected();
    at(LINK_TTL_MS + 1_000);
    const refused = await postForm(`${gateway.url}/hpp/${session.executionId}`, { t: token(href), outcome: 'success' });
    expect(refused.status).toBe(410);
    const still = await merchantRead(session.executionId);
    expect(still.status).toBe('authorizePending');
    const fresh = still.links.redirect ?? '';
    expect(token(fresh)).not.toBe(token(href));
    const paid = await postForm(`${gateway.url}/hpp/${session.executionId}`, { t: token(fresh), outcome: 'success' });
    expect(paid.status).toBe(200);
    expect((await merchantRead(session.executionId)).status).toBe('authorizeSuccessful');
  });

  it("a token with a forged expiry, another execution's token or a never-expiring one stays 403 JSON", async () => {
    const { session, href } = await redirected();
    const other = await redirected();
    const [expiry = '', mac = ''] = token(href).split('.');
    const later = `${(Number.parseInt(expiry, 36) + 86_400).toString(36)}.${mac}`;
    // The old form of the token: HMAC of the execution id alone, valid forever.
    const forever = createHmac('sha256', DEV_DEFAULT_SECRETS.GATEWAY_JWT_SECRET)
      .update(`page:${session.executionId}`)
      .digest('base64url')
      .slice(0, 32);
    for (const t of [later, token(other.href), forever]) {
      const answer = await call(`${gateway.url}/hpp/${session.executionId}?t=${encodeURIComponent(t)}`);
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({ code: 'FORBIDDEN', error: 'This page link is not valid' });
    }
  });
});
