import type { Execution } from '@roots/contracts/gateway';
import type { PaymentStatusResponse } from '@roots/contracts/subscriptions';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_SERVER_SECRETS } from '../../config/env';
import { emails, purchaseIntents, subscriptions } from '../../db/schema';
import { systemClock } from '../../lib/clock';
import { startGatewayProcess, type GatewayProcess } from '../../test/gateway-process';
import { startProductOverHttp, type ProductOverHttp } from '../../test/product-over-http';
import { CookieJar, http, payWithCard, purchaseBody } from '../../test/shopper';

/**
 * Issue 24: the customer who closed their bank's check (the 3-D Secure challenge window). "Check
 * again" always answers where the payment stands, never a conflict; paying another way meanwhile
 * is safe, because a first payment that the bank confirms later buys nothing and the payment sweep
 * refunds it, telling the customer.
 */

const WEEKLY = 'roots_3d1_7d2499';
/** The sandbox's 3-D Secure cards (apps/gateway README "Test cards"): success, or declined, after the challenge. */
const CHALLENGE_CARD = '4000000000003220';
const CHALLENGE_THEN_DECLINED = '4000008400001629';

let gateway: GatewayProcess;
let product: ProductOverHttp;
let shortGateway: GatewayProcess;
let shortProduct: ProductOverHttp;
beforeAll(async () => {
  // A gateway whose challenges expire after one second, for the expired answer.
  [gateway, shortGateway] = await Promise.all([startGatewayProcess(), startGatewayProcess({ GATEWAY_CHALLENGE_TTL_SECONDS: '1' })]);
  // The sweep refunds an unclaimed payment at once here (the default grace is 15 minutes).
  const env = { PAYMENT_SWEEP_GRACE_MS: '0', PAYMENT_SWEEP_INTERVAL_MS: '0' };
  [product, shortProduct] = await Promise.all([
    startProductOverHttp({ databaseUrl: undefined, gatewayUrl: gateway.url, clock: systemClock, env }),
    startProductOverHttp({ databaseUrl: undefined, gatewayUrl: shortGateway.url, clock: systemClock, env }),
  ]);
});
afterAll(async () => {
  await Promise.all([product?.close(), shortProduct?.close()]);
  await Promise.all([gateway?.stop(), shortGateway?.stop()]);
});

type Paid = Awaited<ReturnType<typeof payWithCard>>;

/** The pending page's check, as the browser sends it. */
const check = (base: string, paid: Paid, email: string, jar?: CookieJar) =>
  http<PaymentStatusResponse>(`${base}/subs/payment-status`, { json: { execution_id: paid.execution.id, email }, ...(jar ? { jar } : {}) });

/** The bank answers the challenge over HTTP, as the challenge page's form does: with the right code, or failing it. */
async function answerChallenge(paid: Paid, action: 'submit' | 'fail' = 'submit'): Promise<string> {
  const href = paid.execution.links.threeDS?.href;
  if (!href) throw new Error('no challenge link');
  const page = await fetch(href).then((response) => response.text());
  const code = /data-testid="otp-hint">(\d{6})</.exec(page)?.[1] ?? '';
  const url = new URL(href);
  const answer = await fetch(`${url.origin}${url.pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ t: url.searchParams.get('t') ?? '', action, code }).toString(),
  });
  return answer.text();
}

const gatewayExecution = async (id: string) =>
  (
    await http<Execution>(`${gateway.url}/merchant/v1/executions/${id}`, {
      headers: { 'x-api-key': DEV_SERVER_SECRETS.GATEWAY_MERCHANT_SECRET },
    })
  ).body;

describe('"check again" on the pending page', () => {
  it('answers pending while the bank has not answered, then paid with the subscription once it has', async () => {
    const { base, database } = product;
    const email = 'pending.then.paid@example.com';
    const jar = new CookieJar();
    const paid = await payWithCard(base, WEEKLY, { number: CHALLENGE_CARD });
    expect(paid.execution.status).toBe('authorizePending');
    // The drop-in's pending outcome records the purchase first (the create call).
    await http(`${base}/subs/create-no-user`, { json: purchaseBody(paid, email), jar });

    for (let round = 0; round < 3; round += 1) {
      expect(await check(base, paid, email, jar)).toMatchObject({ status: 200, body: { status: 'pending' } });
    }
    await answerChallenge(paid);
    const answer = await check(base, paid, email, jar);
    expect(answer.status).toBe(200);
    expect(answer.body.status).toBe('paid');
    const [row] = await database.db.select().from(subscriptions).where(eq(subscriptions.initialExecutionId, paid.execution.id));
    expect(answer.body.id).toBe(row?.id);
    // The browser that asked holds the purchase's proof, as after the create call.
    const owned = await http<{ plans: string[] }>(`${base}/api/entitlements`, { jar });
    expect(owned.body.plans).toEqual([WEEKLY]);
  });

  it('answers failed when the bank refuses, and expired when its check is never finished', async () => {
    const refused = await payWithCard(product.base, WEEKLY, { number: CHALLENGE_THEN_DECLINED });
    const email = 'pending.then.refused@example.com';
    await http(`${product.base}/subs/create-no-user`, { json: purchaseBody(refused, email) });
    await answerChallenge(refused);
    expect(await check(product.base, refused, email)).toMatchObject({ status: 200, body: { status: 'failed' } });

    const abandoned = await payWithCard(shortProduct.base, WEEKLY, { number: CHALLENGE_CARD });
    const other = 'pending.then.expired@example.com';
    await http(`${shortProduct.base}/subs/create-no-user`, { json: purchaseBody(abandoned, other) });
    // The gateway's window is one second here; the check is asked until the answer changes.
    await expect
      .poll(async () => (await check(shortProduct.base, abandoned, other)).body.status, { timeout: 10_000, interval: 250 })
      .toBe('expired');
  });

  it('tells nothing to anyone but the purchase it was started for', async () => {
    const { base } = product;
    const paid = await payWithCard(base, WEEKLY, { number: CHALLENGE_CARD });
    await http(`${base}/subs/create-no-user`, { json: purchaseBody(paid, 'owner.of.pending@example.com') });
    expect((await check(base, paid, 'someone.else@example.com')).status).toBe(404);
    const unknown = await http(`${base}/subs/payment-status`, { json: { execution_id: 'exe_unknown', email: 'a@example.com' } });
    expect(unknown.status).toBe(404);
  });
});

describe('paying another way while the bank still holds the first payment', () => {
  it('a first payment the bank confirms late buys nothing: the sweep refunds it and emails the customer', async () => {
    const { base, database, app } = product;
    const email = 'paid.another.way@example.com';
    const jar = new CookieJar();
    const first = await payWithCard(base, WEEKLY, { number: CHALLENGE_CARD });
    await http(`${base}/subs/create-no-user`, { json: purchaseBody(first, email), jar });
    expect((await check(base, first, email, jar)).body.status).toBe('pending');

    // "Pay another way": a new checkout for the same plan, paid with another card.
    const second = await payWithCard(base, WEEKLY, { number: '4242424242424242' }, { cookie: jar.header() ?? '' });
    const created = await http<{ id: string }>(`${base}/subs/create-no-user`, { json: purchaseBody(second, email), jar });
    expect(created.status, created.text).toBe(200);

    // The bank answers the first challenge late; nothing of ours asked it to.
    expect(await answerChallenge(first)).toContain('data-status="authorizeSuccessful"');
    await app.roots.sweep.run();

    const refunded = await gatewayExecution(first.execution.id);
    expect(refunded.amountRefunded).toBe(refunded.amount.value);
    expect((await gatewayExecution(second.execution.id)).amountRefunded).toBe(0);
    const rows = await database.db.select().from(subscriptions).where(eq(subscriptions.email, email));
    expect(rows.map((row) => row.initialExecutionId)).toEqual([second.execution.id]);
    const [intent] = await database.db.select().from(purchaseIntents).where(eq(purchaseIntents.executionId, first.execution.id));
    expect(intent).toMatchObject({ state: 'failed', email });
    // The page, were it still open, says so.
    expect((await check(base, first, email, jar)).body.status).toBe('refunded');

    await app.roots.emails.idle();
    const told = await database.db.select().from(emails).where(eq(emails.kind, 'duplicate_payment_refund'));
    expect(told.filter((row) => row.to === email).map((row) => row.subject)).toEqual(['We refunded a second payment for Roots']);
    // A second pass changes nothing.
    await app.roots.sweep.run();
    expect((await gatewayExecution(first.execution.id)).refunds).toHaveLength(1);
  });

  it('the same when the late confirmation reaches the product first, by its "check again"', async () => {
    const { base, database, app } = product;
    const email = 'checked.after.paying.another.way@example.com';
    const first = await payWithCard(base, WEEKLY, { number: CHALLENGE_CARD });
    await http(`${base}/subs/create-no-user`, { json: purchaseBody(first, email) });
    const second = await payWithCard(base, WEEKLY);
    expect((await http(`${base}/subs/create-no-user`, { json: purchaseBody(second, email) })).status).toBe(200);
    await answerChallenge(first);
    expect(await check(base, first, email)).toMatchObject({ status: 200, body: { status: 'refunded' } });
    await app.roots.sweep.run();
    expect((await gatewayExecution(first.execution.id)).amountRefunded).toBe(first.execution.amount.value);
    expect(await database.db.select().from(subscriptions).where(eq(subscriptions.email, email))).toHaveLength(1);
  });
});
