import { createHmac } from 'node:crypto';
import type { Execution } from '@roots/contracts/gateway';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RootsApp } from '../../app';
import { DEV_GATEWAY_WEBHOOK_SECRET, DEV_SERVER_SECRETS } from '../../config/env';
import type { Database } from '../../db/database';
import { charges, subscriptions } from '../../db/schema';
import { DAY_MS, ManualClock } from '../../lib/clock';
import { GATEWAY_REFUND_REASON } from '../cancellation/cancellation.service';
import { startGatewayProcess, type GatewayProcess } from '../../test/gateway-process';
import type { GatewayProxy } from '../../test/gateway-proxy';
import { testDatabases } from '../../test/helpers';
import { startProductOverHttp, type ProductOverHttp } from '../../test/product-over-http';
import { payWithIntentOnly } from '../../test/purchase-intent';
import { http, payWithCard, purchaseBody } from '../../test/shopper';
import { GatewayClient } from '../gateway/gateway-client';
import { RECOVER_AFTER_MS } from './charges.service';

const WEEKLY = 'roots_3d1_7d2499';
const THREE_MONTH = 'roots_3m4800_3m4999';
const ULTIMATE = 'roots_ultimate_pack_4999_otp';

let gateway: GatewayProcess;
beforeAll(async () => {
  gateway = await startGatewayProcess();
});
afterAll(async () => {
  await gateway?.stop();
});

/**
 * Each charge kind, as a process that died between the gateway's answer and the ledger's settle
 * leaves it: the attempt row pending, the money moved at the gateway. The next scheduler pass must
 * finish it with the same key (the gateway replays, nothing moves twice) and apply its effects.
 */
describe.each(testDatabases())('charge ledger: recovery of an attempt whose outcome is unknown, on $name', ({ url }) => {
  let database: Database;
  let app: RootsApp;
  let base: string;
  let proxy: GatewayProxy;
  let merchant: GatewayClient;
  const clock = new ManualClock('2026-02-02T12:00:00.000Z');
  const email = (name: string) => `${name}.${url ? 'pg' : 'pglite'}@example.com`;

  let product: ProductOverHttp | undefined;

  beforeAll(async () => {
    product = await startProductOverHttp({ databaseUrl: url, gatewayUrl: gateway.url, clock });
    ({ database, app, base, proxy } = product);
    merchant = new GatewayClient({ baseUrl: proxy.url, merchantKey: DEV_SERVER_SECRETS.GATEWAY_MERCHANT_SECRET, timeoutMs: 10_000 });
  });
  afterAll(async () => {
    await product?.close();
  });

  const subscription = async (id: string) => (await database.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0];
  const buy = async (planId: string, buyer: string) => {
    const paid = await payWithCard(base, planId);
    const created = await http<{ id: string }>(`${base}/subs/create-no-user`, { json: purchaseBody(paid, buyer) });
    expect(created.status, created.text).toBe(200);
    return { paid, id: created.body.id };
  };
  const paidWithIntentOnly = (buyer: string) => payWithIntentOnly(base, database.db, WEEKLY, buyer, clock.now());
  /** The refund row of a three-month subscription's first charge (whole, or `amountMinor`), as a dead process left it. */
  const openRefundOfFirst = async (id: string, executionId: string, amountMinor?: number) => {
    const [first] = await database.db
      .select()
      .from(charges)
      .where(and(eq(charges.subscriptionId, id), eq(charges.kind, 'first')));
    const refund = await app.roots.charges.open({
      kind: 'refund',
      subscriptionId: id,
      planId: THREE_MONTH,
      period: 0,
      attempt: 0,
      refundOfChargeId: first!.id,
      executionId,
      idempotencyKey: `refund:${first!.id}`,
      amountMinor: amountMinor ?? first!.amountMinor,
      currency: 'USD',
    });
    return { first: first!, refund };
  };
  /** Lets the recovery consider the attempts written so far (younger ones belong to live requests). */
  const later = () => clock.advance(RECOVER_AFTER_MS + 1_000);

  it('first: a verified payment whose process died before the subscription gets its subscription and its ledger row', async () => {
    const buyer = email('first');
    // The dead request wrote its intent, then died before asking the gateway about the execution.
    const paid = await paidWithIntentOnly(buyer);
    later();
    expect((await app.roots.billing.tick()).reconciled).toBeGreaterThanOrEqual(1);
    const [row] = await database.db.select().from(subscriptions).where(eq(subscriptions.initialExecutionId, paid.execution.id));
    expect(row).toMatchObject({ email: buyer, planId: WEEKLY, status: 'trialing' });
    const ledger = await database.db.select().from(charges).where(eq(charges.subscriptionId, row!.id));
    expect(ledger.map((charge) => [charge.kind, charge.status, charge.executionId, charge.planId])).toEqual([
      ['first', 'succeeded', paid.execution.id, WEEKLY],
    ]);
  });

  it("first, by webhook: the gateway's signed notice finishes the purchase at once; a forged one changes nothing", async () => {
    const buyer = email('webhook');
    const paid = await paidWithIntentOnly(buyer);
    const now = clock.now();
    const body = JSON.stringify({
      id: 'evt_test_1',
      type: 'execution.authorizeSuccessful',
      createdAt: now.toISOString(),
      data: { execution: paid.execution },
    });
    const signature = (secret: string) => {
      const t = Math.floor(clock.now().getTime() / 1000);
      return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
    };
    const post = (header: string) =>
      http(`${base}/api/gateway/webhooks`, { body, headers: { 'content-type': 'application/json', 'roots-signature': header } });
    const forged = await post(signature('whsec_not_the_shared_secret_at_all'));
    expect(forged).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
    const byExecution = () => database.db.select().from(subscriptions).where(eq(subscriptions.initialExecutionId, paid.execution.id));
    expect(await byExecution()).toEqual([]);
    for (const attempt of [1, 2]) expect((await post(signature(DEV_GATEWAY_WEBHOOK_SECRET))).status, `delivery ${attempt}`).toBe(200);
    const rows = await byExecution();
    expect(rows.map((row) => [row.email, row.planId])).toEqual([[buyer, WEEKLY]]);
  });

  it('renewal: a charge the gateway made is recorded once, by a replay of its key', async () => {
    const { id, paid } = await buy(WEEKLY, email('renewal'));
    const attempt = await app.roots.charges.open({
      kind: 'renewal',
      subscriptionId: id,
      planId: WEEKLY,
      period: 1,
      attempt: 0,
      idempotencyKey: `sub:${id}:period:1`,
      amountMinor: 2499,
      currency: 'USD',
    });
    const charged: Execution = await merchant.charge(
      {
        instrumentId: paid.instrumentId,
        holderReference: paid.session.holderReference,
        amount: { value: 2499, currency: 'USD' },
        orderReference: `sub:${id}:period:1`,
        reason: 'recurring',
      },
      attempt.idempotencyKey,
    );
    expect(charged.status).toBe('authorizeSuccessful');
    clock.advance(3 * DAY_MS);
    // The first test's trial converts too: at least this one renewed.
    expect((await app.roots.billing.tick()).processed.renewed).toBeGreaterThanOrEqual(1);
    expect(await subscription(id)).toMatchObject({ status: 'active', currentPeriod: 1 });
    const [settled] = await database.db.select().from(charges).where(eq(charges.idempotencyKey, attempt.idempotencyKey));
    expect(settled).toMatchObject({ status: 'succeeded', executionId: charged.id });
    const records = proxy.charges.filter((record) => record.idempotencyKey === attempt.idempotencyKey);
    expect(records.map((record) => [record.executionId, record.replayed])).toEqual([
      [charged.id, false],
      [charged.id, true],
    ]);
  });

  it('add-on: a charged add-on gets its subscription from the ledger row alone (parent and plan are columns)', async () => {
    const { id: parentId } = await buy(THREE_MONTH, email('addon'));
    const parent = (await subscription(parentId))!;
    const key = `addon:${parentId}:${ULTIMATE}`;
    const addOnId = '6f1f2c3e-1111-4a4a-8b8b-0123456789ab';
    await app.roots.charges.open({
      kind: 'add-on',
      subscriptionId: addOnId,
      parentSubscriptionId: parentId,
      planId: ULTIMATE,
      period: 0,
      attempt: 0,
      idempotencyKey: key,
      amountMinor: 4999,
      currency: 'USD',
    });
    const charged = await merchant.charge(
      {
        instrumentId: parent.instrumentId!,
        holderReference: parent.holderReference,
        amount: { value: 4999, currency: 'USD' },
        orderReference: key,
        reason: 'unscheduled',
      },
      key,
    );
    expect(await subscription(addOnId)).toBeUndefined();
    later();
    expect((await app.roots.billing.tick()).reconciled).toBeGreaterThanOrEqual(1);
    expect(await subscription(addOnId)).toMatchObject({ parentId, planId: ULTIMATE, status: 'active', initialExecutionId: charged.id });
    expect(proxy.distinctCharges((record) => record.idempotencyKey === key)).toEqual(new Set([charged.id]));
    // Read as the buyer's browser, which holds the purchase's proof (ADR 085).
    const summary = await http<{ subscriptions: Array<{ access: string[] }> }>(`${base}/rec/subscriptions/${addOnId}`, {
      method: 'POST',
      headers: { cookie: app.roots.proof.cookieHeader([addOnId]) },
    });
    expect(summary.body.subscriptions[0]?.access).toEqual(['ultimate_pack']);
  });

  it('refund: a refund the gateway made ends access and is recorded on the refunded charge', async () => {
    const { id, paid } = await buy(THREE_MONTH, email('refund'));
    const { first, refund } = await openRefundOfFirst(id, paid.execution.id);
    // The request the dead process sent: the refund row's amount, the ledger's reason.
    const answer = await merchant.refund(
      paid.execution.id,
      { amount: { value: refund.amountMinor, currency: refund.currency }, reason: GATEWAY_REFUND_REASON },
      refund.idempotencyKey,
    );
    expect(answer.execution.amountRefunded).toBe(4800);
    later();
    expect((await app.roots.billing.tick()).reconciled).toBeGreaterThanOrEqual(1);
    expect(await subscription(id)).toMatchObject({ status: 'expired' });
    const [settled] = await database.db.select().from(charges).where(eq(charges.id, refund.id));
    expect(settled).toMatchObject({ status: 'succeeded', gatewayRefundId: answer.refund.id });
    const [refunded] = await database.db.select().from(charges).where(eq(charges.id, first.id));
    expect(refunded?.refundedMinor).toBe(4800);
    // Asking again answers the recorded refund; the gateway refunds nothing more.
    expect(await app.roots.cancellation.refundLatest(id)).toBe(4800);
    expect((await merchant.getExecution(paid.execution.id)).amountRefunded).toBe(4800);
  });

  it('partial refund: an operator refund the gateway made is recorded for its amount and keeps access', async () => {
    const buyer = email('partial');
    const { id, paid } = await buy(THREE_MONTH, buyer);
    const { first, refund } = await openRefundOfFirst(id, paid.execution.id, 1000);
    // The request the dead process sent: the refund row's amount, the ledger's reason.
    const answer = await merchant.refund(
      paid.execution.id,
      { amount: { value: 1000, currency: 'USD' }, reason: GATEWAY_REFUND_REASON },
      refund.idempotencyKey,
    );
    expect(answer.execution.amountRefunded).toBe(1000);
    later();
    expect((await app.roots.billing.tick()).reconciled).toBeGreaterThanOrEqual(1);
    const [settled] = await database.db.select().from(charges).where(eq(charges.id, refund.id));
    expect(settled).toMatchObject({ status: 'succeeded', amountMinor: 1000, gatewayRefundId: answer.refund.id });
    const [refunded] = await database.db.select().from(charges).where(eq(charges.id, first.id));
    expect(refunded?.refundedMinor).toBe(1000);
    // Part of the charge came back: the subscription and its access stay.
    expect(await subscription(id)).toMatchObject({ status: 'trialing' });
    await app.roots.emails.idle();
    const mails = (await app.inject({ method: 'GET', url: '/dev/mailbox.json' })).json<{
      messages: Array<{ to: string; kind: string; text: string }>;
    }>().messages;
    const receipts = mails.filter((message) => message.to === buyer && message.kind === 'refund_receipt');
    expect(receipts).toHaveLength(1);
    expect(receipts[0]!.text).toContain('$10.00');
    // The same operator request again replays the recorded refund; the gateway holds one refund.
    expect(await app.roots.cancellation.refundCharge(first, 1000, 'goodwill')).toEqual({
      refundedMinor: 1000,
      refundId: answer.refund.id,
    });
    expect((await merchant.getExecution(paid.execution.id)).refunds).toHaveLength(1);
  });
});
