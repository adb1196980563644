import { API_MESSAGES } from '@roots/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_SERVER_SECRETS } from '../../config/env';
import { emails, subscriptions } from '../../db/schema';
import { ManualClock } from '../../lib/clock';
import { startGatewayProcess, type GatewayProcess } from '../../test/gateway-process';
import { startProductOverHttp, type ProductOverHttp } from '../../test/product-over-http';
import { CookieJar, http, payWithCard, purchaseBody } from '../../test/shopper';
import { signInWithEmailCode } from '../../test/sign-in';
import { rowsOf as resultRows } from '../emails/emails.repository';

/**
 * Issue 35, ADR 196: one customer, one plan. The proven owner's second payment is refunded at once
 * and the answer says so; two completions at the same moment see each other (the email's purchase
 * lock); a purchase under an email that was only a claim looks like any purchase until the owner
 * proves the email, then is refunded and the claim says so; one nobody claims is refunded after
 * the sweep's grace, before it could renew; another plan beside a live one is not sold.
 */

const WEEKLY = 'roots_3d1_7d2499';
const THREE_MONTH = 'roots_3m4800_3m4999';
const REFUNDED_WEEKLY = 'You already have the Weekly Plan — this payment was refunded.';

let gateway: GatewayProcess;
let product: ProductOverHttp;
const clock = new ManualClock('2026-05-04T09:00:00.000Z');

beforeAll(async () => {
  gateway = await startGatewayProcess();
  product = await startProductOverHttp({ databaseUrl: undefined, gatewayUrl: gateway.url, clock });
});
afterAll(async () => {
  await product?.close();
  await gateway?.stop();
});

const rowsOf = (email: string) => product.database.db.select().from(subscriptions).where(eq(subscriptions.email, email));
const livePlans = async (email: string) =>
  (await rowsOf(email)).filter((row) => row.parentId === null && ['trialing', 'active', 'past_due'].includes(row.status));
const refundedOf = async (executionId: string) =>
  (
    await http<{ amountRefunded: number; amount: { value: number } }>(`${gateway.url}/merchant/v1/executions/${executionId}`, {
      headers: { 'x-api-key': DEV_SERVER_SECRETS.GATEWAY_MERCHANT_SECRET },
    })
  ).body;
const duplicateMails = async (email: string) =>
  product.database.db
    .select()
    .from(emails)
    .where(and(eq(emails.kind, 'duplicate_payment_refund'), eq(emails.to, email)));

async function signIn(email: string) {
  const cookie = await signInWithEmailCode(product.app, email, product.base);
  const me = await http<{ user: { uid: string } }>(`${product.base}/api/account/me`, { headers: { cookie } });
  return { cookie, uid: me.body.user.uid };
}

describe('one customer, one plan (ADR 196)', () => {
  it('two tabs of one signed-in owner paying at the same moment: one subscription, the other payment refunded at once and said', async () => {
    const email = 'one-plan.two-tabs@example.com';
    const { cookie, uid } = await signIn(email);
    const paid = await Promise.all([payWithCard(product.base, WEEKLY), payWithCard(product.base, WEEKLY)]);
    const answers = await Promise.all(
      paid.map((payment) =>
        http<{ id?: string; code?: string; error?: string }>(`${product.base}/subs/create`, {
          json: { ...purchaseBody(payment, email), firebase_id: uid, card: { execution_id: payment.execution.id } },
          headers: { cookie },
        }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const refused = answers.findIndex((answer) => answer.status === 409);
    expect(answers[refused]?.body).toEqual({ code: 'ALREADY_OWNED', error: REFUNDED_WEEKLY });
    expect(await livePlans(email)).toHaveLength(1);
    expect(await rowsOf(email)).toHaveLength(1);
    // Refunded now, by the request: no sweep pass ran.
    const execution = await refundedOf(paid[refused]!.execution.id);
    expect(execution.amountRefunded).toBe(execution.amount.value);
    expect((await refundedOf(paid[1 - refused]!.execution.id)).amountRefunded).toBe(0);
    expect(await duplicateMails(email)).toHaveLength(1);
    // A sweep pass afterwards refunds nothing more (one ledger key per execution).
    clock.advance(16 * 60_000);
    await product.app.roots.billing.tick();
    expect((await refundedOf(paid[refused]!.execution.id)).amountRefunded).toBe(execution.amount.value);
    expect(await duplicateMails(email)).toHaveLength(1);
  });

  it('an owner naming an execution of no checkout this server opened: refused before anything is written or the gateway asked', async () => {
    const email = 'one-plan.foreign-execution@example.com';
    const { cookie, uid } = await signIn(email);
    const [payment, stranger] = await Promise.all([payWithCard(product.base, WEEKLY), payWithCard(product.base, WEEKLY)]);
    const bought = await http(`${product.base}/subs/create`, {
      json: { ...purchaseBody(payment, email), firebase_id: uid, card: { execution_id: payment.execution.id } },
      headers: { cookie },
    });
    expect(bought.status, bought.text).toBe(200);
    // Someone else's payment: a real, settled execution, but of a checkout this product never opened for it.
    await product.database.db.execute(sql`delete from checkout_sessions where execution_id = ${stranger.execution.id}`);
    const answer = await http<{ code?: string }>(`${product.base}/subs/create`, {
      json: { ...purchaseBody(stranger, email), firebase_id: uid, card: { execution_id: stranger.execution.id } },
      headers: { cookie },
    });
    expect(answer.body.code).toBe('PAYMENT_NOT_ACCEPTED');
    expect((await refundedOf(stranger.execution.id)).amountRefunded).toBe(0);
    expect(
      resultRows(await product.database.db.execute(sql`select 1 from purchase_intents where execution_id = ${stranger.execution.id}`)),
    ).toEqual([]);
  });

  it('the same email in another browser: a purchase like any other until the claim, which refunds it and says so', async () => {
    const email = 'one-plan.two-browsers@example.com';
    const first = new CookieJar();
    const second = new CookieJar();
    const paidFirst = await payWithCard(product.base, WEEKLY);
    const kept = await http<{ id: string }>(`${product.base}/subs/create-no-user`, { json: purchaseBody(paidFirst, email), jar: first });
    expect(kept.status, kept.text).toBe(200);
    // A minute later, the other browser proves nothing: it is answered as an address that owns nothing would be.
    clock.advance(60_000);
    const paidSecond = await payWithCard(product.base, WEEKLY);
    const bought = await http<{ id: string }>(`${product.base}/subs/create-no-user`, {
      json: purchaseBody(paidSecond, email),
      jar: second,
    });
    expect(bought.status, bought.text).toBe(200);
    expect(Object.keys(bought.body)).toEqual(['id']);

    // The claim: the email's code proves the owner; the second plan is refunded now and the answer says so.
    const { cookie, uid } = await signIn(email);
    const claimed = await http<{ id: string; refunded_duplicate?: unknown }>(`${product.base}/subs/finalize`, {
      json: { subscription_id: bought.body.id, email, firebase_id: uid },
      headers: { cookie: `${cookie}; ${second.header()}` },
    });
    expect(claimed.status, claimed.text).toBe(200);
    expect(claimed.body).toEqual({
      id: bought.body.id,
      refunded_duplicate: { plan_name: 'Weekly Plan', message: REFUNDED_WEEKLY },
    });
    expect((await livePlans(email)).map((row) => row.id)).toEqual([kept.body.id]);
    const execution = await refundedOf(paidSecond.execution.id);
    expect(execution.amountRefunded).toBe(execution.amount.value);
    // The first browser's claim keeps its plan and says nothing more.
    const again = await http(`${product.base}/subs/finalize`, {
      json: { subscription_id: kept.body.id, email, firebase_id: uid },
      headers: { cookie: `${cookie}; ${first.header()}` },
    });
    expect(again.body).toEqual({ id: kept.body.id });
    expect((await refundedOf(paidFirst.execution.id)).amountRefunded).toBe(0);
  });

  it('two browsers completing at the same moment and never claimed: the newer is refunded after the grace, never renewed', async () => {
    const email = 'one-plan.unclaimed@example.com';
    const paid = await Promise.all([payWithCard(product.base, WEEKLY), payWithCard(product.base, WEEKLY)]);
    const answers = await Promise.all(
      paid.map((payment) =>
        http<{ id: string }>(`${product.base}/subs/create-no-user`, { json: purchaseBody(payment, email), jar: new CookieJar() }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    await product.app.roots.billing.tick();
    expect(await livePlans(email)).toHaveLength(2);
    clock.advance(16 * 60_000);
    await product.app.roots.billing.tick();
    const live = await livePlans(email);
    expect(live).toHaveLength(1);
    const refunded = (await rowsOf(email)).find((row) => row.id !== live[0]!.id)!;
    expect(refunded).toMatchObject({ status: 'expired' });
    const execution = await refundedOf(refunded.initialExecutionId);
    expect(execution.amountRefunded).toBe(execution.amount.value);
  });

  it('another plan beside a live one is not sold: the checkout says to change it, a payment made anyway is refunded at once', async () => {
    const email = 'one-plan.other-plan@example.com';
    const jar = new CookieJar();
    const weekly = await payWithCard(product.base, WEEKLY);
    expect((await http(`${product.base}/subs/create-no-user`, { json: purchaseBody(weekly, email), jar })).status).toBe(200);
    const checkout = await http(`${product.base}/init/session`, { json: { plan_id: THREE_MONTH }, jar });
    expect(checkout).toMatchObject({ status: 409, body: { code: 'ALREADY_OWNED', error: API_MESSAGES.alreadyHavePlan } });
    // A checkout opened elsewhere and paid in this browser: refunded now, the answer names the plan kept.
    const threeMonth = await payWithCard(product.base, THREE_MONTH);
    const refused = await http(`${product.base}/subs/create-no-user`, { json: purchaseBody(threeMonth, email), jar });
    expect(refused).toMatchObject({ status: 409, body: { code: 'ALREADY_OWNED', error: REFUNDED_WEEKLY } });
    const execution = await refundedOf(threeMonth.execution.id);
    expect(execution.amountRefunded).toBe(execution.amount.value);
    expect((await livePlans(email)).map((row) => row.planId)).toEqual([WEEKLY]);
  });
});
