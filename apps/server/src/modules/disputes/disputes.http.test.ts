import type { CustomerRecord, RevenueReport } from '@roots/contracts/admin';
import type { Execution } from '@roots/contracts/gateway';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type RootsApp } from '../../app';
import { DEV_SERVER_SECRETS, loadConfig } from '../../config/env';
import type { Database } from '../../db/database';
import { accessGrants, adminAudit, charges, disputes, subscriptions } from '../../db/schema';
import { startGatewayProcess, type GatewayProcess } from '../../test/gateway-process';
import { makeWebDist, openTestDatabase, testDatabases } from '../../test/helpers';
import { signInAsOperator, type SignedInOperator } from '../../test/operator';
import { CookieJar, http, payWithCard, purchaseBody } from '../../test/shopper';
import { pollUntil, startWebhookForwarder } from '../../test/webhook-forwarder';

const WEEKLY = 'roots_3d1_7d2499';
/** The gateway's "dispute: fraudulent" test card: pays, then its bank disputes the payment at once. */
const DISPUTE_CARD = '4000000000000259';

describe.each(testDatabases())('a disputed payment against the real gateway (ADR 182) on $name', ({ url }) => {
  let gateway: GatewayProcess;
  let forwarder: Awaited<ReturnType<typeof startWebhookForwarder>>;
  let database: Database;
  let app: RootsApp;
  let base: string;
  let origin: string;
  let operator: SignedInOperator;
  const tag = url ? 'pg' : 'pglite';
  const email = (name: string) => `${name}.dispute-life.${tag}@example.com`;

  beforeAll(async () => {
    forwarder = await startWebhookForwarder();
    gateway = await startGatewayProcess({ GATEWAY_WEBHOOK_URLS: forwarder.url, GATEWAY_WEBHOOK_RETRY_BASE_MS: '100' });
    database = await openTestDatabase(url);
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      WEB_DIST_DIR: makeWebDist(),
      GATEWAY_URL: gateway.url,
      RATE_LIMIT_PER_MINUTE: '100000',
      EMAIL_RATE_LIMIT_PER_HOUR: '100000',
      PAYMENT_SWEEP_INTERVAL_MS: '0',
    });
    origin = new URL(config.publicUrl).origin;
    app = await buildApp({ config, database });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
    config.publicUrl = base;
    forwarder.target.url = `${base}/api/gateway/webhooks`;
    operator = await signInAsOperator(app, email('ops'), 'support', origin);
    // Two processes start on a shared machine: the hook may take longer than the default.
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await gateway?.stop();
    await forwarder?.close();
  });

  /** An operator request answered with any status. */
  const asOperator = async <T>(path: string, payload?: object) => {
    const answer = await app.inject({
      method: payload ? 'POST' : 'GET',
      url: path,
      headers: { cookie: operator.cookie, origin },
      ...(payload ? { payload } : {}),
    });
    return { status: answer.statusCode, body: answer.json<T>() };
  };
  const atGateway = async (id: string) =>
    (
      await http<Execution>(`${gateway.url}/merchant/v1/executions/${id}`, {
        headers: { 'x-api-key': DEV_SERVER_SECRETS.GATEWAY_MERCHANT_SECRET },
      })
    ).body;
  /** A plan bought with the dispute card, its dispute recorded from the gateway's webhook. */
  const disputedPurchase = async (buyer: string) => {
    const jar = new CookieJar();
    const paid = await payWithCard(base, WEEKLY, { number: DISPUTE_CARD });
    const created = await http<{ id: string }>(`${base}/subs/create-no-user`, { json: purchaseBody(paid, buyer), jar });
    expect(created.status, created.text).toBe(200);
    const [dispute] = await pollUntil(
      () => database.db.select().from(disputes).where(eq(disputes.executionId, paid.execution.id)),
      (rows) => rows.length === 1,
    );
    const [charge] = await database.db.select().from(charges).where(eq(charges.executionId, paid.execution.id));
    return { jar, executionId: paid.execution.id, subscriptionId: created.body.id, dispute: dispute!, charge: charge! };
  };
  const refundRows = (chargeId: string) =>
    database.db
      .select()
      .from(charges)
      .where(and(eq(charges.kind, 'refund'), eq(charges.refundOfChargeId, chargeId)));
  const auditOf = (action: string) => database.db.select().from(adminAudit).where(eq(adminAudit.action, action));

  it('refuses the customer’s money-back and the operator’s refund while the dispute is open; the record shows the dispute', async () => {
    const buyer = email('refused');
    const bought = await disputedPurchase(buyer);

    const moneyBack = await http<{ code: string; error: string }>(`${base}/api/cancel`, {
      json: { id: bought.subscriptionId, refund: true },
      jar: bought.jar,
    });
    expect(moneyBack.status).toBe(409);
    expect(moneyBack.body.code).toBe('CHARGE_DISPUTED');
    expect(moneyBack.body.error).toMatch(/disputed with the card’s bank/);
    // Nothing half happened: not canceled, nothing refunded here or at the gateway.
    const [row] = await database.db.select().from(subscriptions).where(eq(subscriptions.id, bought.subscriptionId));
    expect(row!.canceledAt).toBeNull();
    expect(await refundRows(bought.charge.id)).toEqual([]);
    expect((await atGateway(bought.executionId)).amountRefunded).toBe(0);

    const byOperator = await asOperator<{ code: string }>('/api/admin/customers/refund', { charge_id: bought.charge.id, reason: 'asked' });
    expect(byOperator.status).toBe(409);
    expect(byOperator.body.code).toBe('CHARGE_DISPUTED');
    expect(await refundRows(bought.charge.id)).toEqual([]);
    expect((await atGateway(bought.executionId)).amountRefunded).toBe(0);

    const record = await asOperator<CustomerRecord>(`/api/admin/customers?q=${encodeURIComponent(buyer)}`);
    expect(record.body.disputes).toEqual([
      expect.objectContaining({
        dispute_id: bought.dispute.disputeId,
        charge_id: bought.charge.id,
        subscription_id: bought.subscriptionId,
        status: 'needs_response',
        amount_minor: bought.charge.amountMinor,
        answerable: true,
        refund_blocked: true,
      }),
    ]);
  });

  it('evidence before the due date wins the dispute (sandbox words), audited once; a replay changes nothing; the refund is allowed after', async () => {
    const buyer = email('won');
    const bought = await disputedPurchase(buyer);
    const text = 'The customer accepted the terms and used the service. winning_evidence';
    const answered = await asOperator<{ dispute: CustomerRecord['disputes'][number]; evidence_entries: number }>(
      '/api/admin/disputes/evidence',
      { dispute_id: bought.dispute.disputeId, text },
    );
    expect(answered.status).toBe(200);
    expect(answered.body.dispute).toMatchObject({ status: 'won', answerable: false, refund_blocked: false });
    expect(answered.body.dispute.evidence_submitted_at).not.toBeNull();
    expect(answered.body.evidence_entries).toBeGreaterThanOrEqual(2);
    const replay = await asOperator<{ dispute: { status: string } }>('/api/admin/disputes/evidence', {
      dispute_id: bought.dispute.disputeId,
      text: 'another text',
    });
    expect(replay.status).toBe(200);
    expect(replay.body.dispute.status).toBe('won');
    const audited = (await auditOf('dispute.evidence_submitted')).filter((entry) => entry.detail.dispute_id === bought.dispute.disputeId);
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({ customerEmail: buyer, subscriptionId: bought.subscriptionId, operatorEmail: operator.email });
    // The gateway's own updates arrive later and do not move it back.
    await pollUntil(
      () => database.db.select().from(disputes).where(eq(disputes.disputeId, bought.dispute.disputeId)),
      (rows) => rows[0]?.status === 'won',
    );
    const refunded = await asOperator<{ refunded_minor: number }>('/api/admin/customers/refund', {
      charge_id: bought.charge.id,
      reason: 'goodwill after a won dispute',
    });
    expect(refunded.status).toBe(200);
    expect(refunded.body.refunded_minor).toBe(bought.charge.amountMinor);
  });

  it('accepting the dispute ends the purchase and its access; any refund is refused as a chargeback; audited once', async () => {
    const buyer = email('accepted');
    const bought = await disputedPurchase(buyer);
    const accepted = await asOperator<{ dispute: { status: string; refund_blocked: boolean } }>('/api/admin/disputes/accept', {
      dispute_id: bought.dispute.disputeId,
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body.dispute).toMatchObject({ status: 'accepted', refund_blocked: true });
    expect((await asOperator('/api/admin/disputes/accept', { dispute_id: bought.dispute.disputeId })).status).toBe(200);
    expect((await auditOf('dispute.accepted')).filter((entry) => entry.detail.dispute_id === bought.dispute.disputeId)).toHaveLength(1);
    const late = await asOperator<{ code: string }>('/api/admin/disputes/evidence', { dispute_id: bought.dispute.disputeId, text: 'late' });
    expect(late.status).toBe(409);

    const [row] = await database.db.select().from(subscriptions).where(eq(subscriptions.id, bought.subscriptionId));
    expect(row!.status).toBe('expired');
    expect(row!.endedAt).not.toBeNull();
    const grants = await database.db.select().from(accessGrants).where(eq(accessGrants.subscriptionId, bought.subscriptionId));
    expect(grants.every((grant) => grant.revokedAt !== null)).toBe(true);

    const byOperator = await asOperator<{ code: string; error: string }>('/api/admin/customers/refund', {
      charge_id: bought.charge.id,
      reason: 'asked',
    });
    expect(byOperator.status).toBe(409);
    expect(byOperator.body).toMatchObject({ code: 'CHARGE_DISPUTED' });
    expect(byOperator.body.error).toMatch(/chargeback/);
    expect((await atGateway(bought.executionId)).amountRefunded).toBe(0);

    // Revenue counts it beside refunds: one chargeback of the accepted amount; the month's rate by both networks' formulas.
    const today = new Date().toISOString().slice(0, 10);
    const revenue = (await asOperator<RevenueReport>(`/api/admin/revenue?from=${today}&to=${today}`)).body;
    expect(revenue.totals).toMatchObject({ disputes_opened: 3, chargebacks: 1, chargeback_minor: bought.charge.amountMinor, refunds: 1 });
    expect(revenue.dispute_months).toEqual([
      {
        month: today.slice(0, 7),
        disputes: 3,
        card_payments: 3,
        previous_month_card_payments: 0,
        visa_ratio: 1,
        mastercard_ratio: 0,
        alert: true,
      },
    ]);
  });
});
