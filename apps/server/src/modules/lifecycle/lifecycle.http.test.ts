import { MESSAGES } from '@roots/contracts';
import type { CancelLinkDetails, CancelOutcome, SubscriptionSummary } from '@roots/contracts/subscriptions';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_SERVER_SECRETS } from '../../config/env';
import { cancellationChannels, subscriptions } from '../../db/schema';
import { DAY_MS, HOUR_MS, ManualClock } from '../../lib/clock';
import { cancelLinkToken } from '../links/cancel-link';
import { startGatewayProcess, type GatewayProcess } from '../../test/gateway-process';
import { startProductOverHttp, type ProductOverHttp } from '../../test/product-over-http';
import { CookieJar, http, payWithCard, purchaseBody } from '../../test/shopper';
import { startSmtp } from '../../test/smtp';

/**
 * Issue 23: one lifecycle decides what a customer owns, what the email says and what the console
 * counts. A final renewal failure is involuntary churn; the money-back guarantee is offered where
 * the terms promise it (with the cancel, or as a pack's refund) and only within its window; the
 * operator's "Cancel now" says access has ended.
 */

const WEEKLY = 'roots_3d1_7d2499';
const ULTIMATE = 'roots_ultimate_pack_4999_otp';

let gateway: GatewayProcess;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let product: ProductOverHttp;
const clock = new ManualClock('2026-03-02T09:00:00.000Z');

beforeAll(async () => {
  [gateway, smtp] = await Promise.all([startGatewayProcess(), startSmtp()]);
  // One retry an hour after the first decline; the second decline is the last.
  product = await startProductOverHttp({
    databaseUrl: undefined,
    gatewayUrl: gateway.url,
    clock,
    env: { SMTP_URL: smtp.url, RENEWAL_RETRY_DELAYS_HOURS: '1' },
  });
  product.config.publicUrl = product.base;
});
afterAll(async () => {
  await product?.close();
  await Promise.all([gateway?.stop(), smtp?.stop()]);
});

const row = async (id: string) => (await product.database.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;
const churn = async (id: string) =>
  (await product.database.db.select().from(cancellationChannels).where(eq(cancellationChannels.subscriptionId, id)))[0];
const summary = async (id: string, jar: CookieJar) =>
  (await http<{ subscriptions: SubscriptionSummary[] }>(`${product.base}/rec/subscriptions/${id}`, { method: 'POST', jar })).body
    .subscriptions[0]!;
const mailsTo = (to: string) => smtp.mails.filter((mail) => mail.to.includes(to));

async function buy(planId: string, email: string) {
  const paid = await payWithCard(product.base, planId);
  const jar = new CookieJar();
  const created = await http<{ id: string }>(`${product.base}/subs/create-no-user`, { json: purchaseBody(paid, email), jar });
  expect(created.status, created.text).toBe(200);
  return { id: created.body.id, jar, paid };
}

describe('the subscription lifecycle', () => {
  it('a final renewal failure ends the subscription as involuntary churn, with the email that says so', async () => {
    const email = 'lifecycle.churn@example.com';
    const { id } = await buy(WEEKLY, email);
    await product.app.roots.emails.idle();
    product.proxy.declineNextCharges(2, `sub:${id}:`);
    clock.advance(3 * DAY_MS + 1000);
    await product.app.roots.billing.tick();
    await product.app.roots.emails.idle();
    expect(await row(id)).toMatchObject({ status: 'past_due', canceledAt: null });
    expect(await churn(id)).toBeUndefined();
    clock.advance(HOUR_MS);
    await product.app.roots.billing.tick();
    await product.app.roots.emails.idle();
    expect(await row(id)).toMatchObject({ status: 'expired', dueAt: null, canceledAt: clock.now(), endedAt: clock.now() });
    expect(await churn(id)).toMatchObject({ channel: 'payment_failed', reason: 'insufficient_funds' });
    await smtp.waitFor((mail) => mail.to.includes(email) && mail.subject.includes('has ended'));
  });

  it('the guarantee is offered while it lasts, and the cancel link refunds with the cancel', async () => {
    const email = 'lifecycle.link-refund@example.com';
    const { id, jar, paid } = await buy(WEEKLY, email);
    const offered = await summary(id, jar);
    expect(offered.refund).toEqual({ amount: 1, until: new Date(clock.now().getTime() + 30 * DAY_MS).toISOString() });

    const link = cancelLinkToken(product.config.APP_SECRET, id, clock.now());
    const details = await http<CancelLinkDetails>(`${product.base}/api/cancel-subscription/${link}/details`);
    expect(details.status, details.text).toBe(200);
    expect(details.body).toMatchObject({ plan_name: 'Weekly Plan', subscription: { id, refund: { amount: 1 } } });
    expect((await http(`${product.base}/api/cancel-subscription/${link.slice(0, -2)}xx/details`)).status).toBe(404);

    const outcome = await http<CancelOutcome>(`${product.base}/api/cancel-subscription/${link}?refund=true`, { json: {} });
    expect(outcome.body).toEqual({ message: MESSAGES.subscriptionCanceled, refunded: 1 });
    expect(await row(id)).toMatchObject({ status: 'expired' });
    // Canceled by the customer first: the channel is theirs, not "refund".
    expect((await churn(id))?.channel).toBe('one_click_link');
    expect((await summary(id, jar)).refund).toBeNull();
    const execution = await http<{ amountRefunded: number }>(`${gateway.url}/merchant/v1/executions/${paid.execution.id}`, {
      headers: { 'x-api-key': DEV_SERVER_SECRETS.GATEWAY_MERCHANT_SECRET },
    });
    expect(execution.body.amountRefunded).toBe(100);
    await product.app.roots.emails.idle();
    const refundMail = await smtp.waitFor((mail) => mail.to.includes(email) && mail.subject.includes('refund'));
    // Issue 35: what the email says about access is what happened (ended now), and no cancel
    // email says it lasts until the period's end.
    expect(refundMail.text.replace(/\s+/g, ' ')).toContain('Weekly Plan has ended with this refund: your access ended on');
    expect(smtp.mails.filter((mail) => mail.to.includes(email) && /lasts until/.test(mail.text))).toEqual([]);
  });

  it('a one-time pack has no cancel but its guarantee refund ends it, counted as a refund; past the window none is offered', async () => {
    const email = 'lifecycle.pack@example.com';
    const { id: parentId, jar } = await buy(WEEKLY, email);
    const pack = await http<{ id: string }>(`${product.base}/subs/create-no-user`, {
      json: { plan_id: ULTIMATE, email, subscription_id: parentId },
      jar,
    });
    expect(pack.status, pack.text).toBe(200);
    expect(await summary(pack.body.id, jar)).toMatchObject({ renews: false, refund: { amount: 49.99 } });
    expect(await http(`${product.base}/api/cancel`, { json: { id: pack.body.id }, jar })).toMatchObject({ status: 409 });
    const refunded = await http<CancelOutcome>(`${product.base}/api/cancel`, { json: { id: pack.body.id, refund: true }, jar });
    expect(refunded.body).toEqual({ message: MESSAGES.subscriptionCanceled, refunded: 49.99 });
    expect(await row(pack.body.id)).toMatchObject({ status: 'expired', canceledAt: clock.now() });
    expect(await churn(pack.body.id)).toMatchObject({ channel: 'refund' });

    // The parent's guarantee ends with its window: nothing is offered, and asking refunds nothing.
    clock.advance(31 * DAY_MS);
    const late = await summary(parentId, jar);
    expect(late.refund).toBeNull();
    clock.advance(-31 * DAY_MS);
  });

  it("the operator's Cancel now ends access at once and the email says it has ended", async () => {
    const email = 'lifecycle.cancel-now@example.com';
    const { id } = await buy(WEEKLY, email);
    const before = await row(id);
    await product.app.roots.cancellation.cancel(before, 'now');
    await product.app.roots.emails.idle();
    expect(await row(id)).toMatchObject({ status: 'expired', endedAt: clock.now(), currentPeriodEnd: clock.now(), dueAt: null });
    const mail = await smtp.waitFor((candidate) => candidate.to.includes(email) && candidate.subject.includes('canceled'));
    expect(mail.text).toContain('Your access has ended.');
    expect(mail.text).not.toContain('Your access lasts until');
    expect(mailsTo(email).filter((candidate) => candidate.subject.includes('canceled'))).toHaveLength(1);
  });
});
