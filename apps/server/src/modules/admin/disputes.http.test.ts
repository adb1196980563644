import { createHmac } from 'node:crypto';
import type { CustomerTimeline, DisputeQueue, WebhookEvents } from '@roots/contracts/admin-queues';
import { DISPUTE_EVIDENCE_DAYS, type Execution } from '@roots/contracts/gateway';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type RootsApp } from '../../app';
import { DEV_GATEWAY_WEBHOOK_SECRET, DEV_SERVER_SECRETS, loadConfig } from '../../config/env';
import type { Database } from '../../db/database';
import { charges, disputes, gatewayWebhookEvents } from '../../db/schema';
import { DAY_MS } from '../../lib/clock';
import { startGatewayProcess, type GatewayProcess } from '../../test/gateway-process';
import { startWebhookForwarder, type WebhookForwarder } from '../../test/webhook-forwarder';
import { makeWebDist, openTestDatabase, testDatabases } from '../../test/helpers';
import { operatorRequests, signInAsOperator } from '../../test/operator';
import { CookieJar, http, payWithCard, purchaseBody } from '../../test/shopper';

const WEEKLY = 'roots_3d1_7d2499';
const WEEKLY_NAME = 'Weekly Plan';
/** The gateway's "dispute: fraudulent" test card: pays, then its bank disputes the payment at once. */
const DISPUTE_CARD = '4000000000000259';

/** Polls `read` every 50 ms until `done` holds of what it returns, for at most `timeoutMs`; returns the last read. */
async function pollUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`not done within ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.each(testDatabases())('card disputes from the gateway to the operator’s queue on $name', ({ url }) => {
  // The real gateway delivers its signed webhooks to this server, so both run on the real clock.
  let gateway: GatewayProcess;
  let gate: WebhookForwarder;
  let database: Database;
  let app: RootsApp;
  let base: string;
  let asOperator: ReturnType<typeof operatorRequests>;
  const tag = url ? 'pg' : 'pglite';
  const email = (name: string) => `${name}.disputes.${tag}@example.com`;

  beforeAll(async () => {
    gate = await startWebhookForwarder();
    gateway = await startGatewayProcess({
      GATEWAY_WEBHOOK_URLS: gate.url,
      GATEWAY_WEBHOOK_RETRY_BASE_MS: '100',
      GATEWAY_WEBHOOK_MAX_ATTEMPTS: '20',
    });
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
    const ourOrigin = new URL(config.publicUrl).origin;
    app = await buildApp({ config, database });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
    config.publicUrl = base;
    gate.target.url = `${base}/api/gateway/webhooks`;
    const operator = await signInAsOperator(app, email('ops'), 'viewer', ourOrigin);
    asOperator = operatorRequests(app, operator, ourOrigin);
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await gateway?.stop();
    await gate?.close();
  });

  const disputesOf = (executionId: string) => database.db.select().from(disputes).where(eq(disputes.executionId, executionId));
  const gatewayExecution = async (id: string) =>
    (
      await http<Execution>(`${gateway.url}/merchant/v1/executions/${id}`, {
        headers: { 'x-api-key': DEV_SERVER_SECRETS.GATEWAY_MERCHANT_SECRET },
      })
    ).body;
  /** A signed delivery of `body` to our webhook route, as the gateway makes it. */
  const deliver = (body: string, secret = DEV_GATEWAY_WEBHOOK_SECRET) => {
    const t = Math.floor(Date.now() / 1000);
    const signature = `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
    return http(`${base}/api/gateway/webhooks`, { body, headers: { 'content-type': 'application/json', 'roots-signature': signature } });
  };

  it('a plan bought with the dispute card shows in the disputes queue with the customer, plan and amount; a redelivery records it once; the timeline shows it', async () => {
    const buyer = email('Disputed.Buyer');
    // The purchase is recorded before the gateway's webhooks get through.
    gate.open = false;
    const paid = await payWithCard(base, WEEKLY, { number: DISPUTE_CARD });
    expect(paid.execution.status).toBe('authorizeSuccessful');
    const created = await http<{ id: string }>(`${base}/subs/create-no-user`, { json: purchaseBody(paid, buyer), jar: new CookieJar() });
    expect(created.status, created.text).toBe(200);
    expect(await disputesOf(paid.execution.id)).toEqual([]);
    gate.open = true;

    // The gateway's own signed execution.disputeOpened webhook arrives.
    const queue = await pollUntil(
      () => asOperator<DisputeQueue>('/api/admin/queues/disputes'),
      (answer) => answer.items.some((item) => item.execution_id === paid.execution.id),
    );
    const atGateway = await gatewayExecution(paid.execution.id);
    const dispute = atGateway.dispute!;
    expect(dispute).toMatchObject({ reason: 'fraudulent', status: 'needs_response', amount: { value: 100, currency: 'USD' } });
    expect(queue.items.find((item) => item.execution_id === paid.execution.id)).toEqual({
      dispute_id: dispute.id,
      execution_id: paid.execution.id,
      subscription_id: created.body.id,
      email: buyer.toLowerCase(),
      plan_id: WEEKLY,
      plan_name: WEEKLY_NAME,
      amount_minor: 100,
      currency: 'USD',
      reason: 'fraudulent',
      status: 'needs_response',
      evidence_due_by: dispute.evidenceDueBy,
      opened_at: dispute.createdAt,
    });
    expect(Date.parse(dispute.evidenceDueBy) - Date.parse(dispute.createdAt)).toBe(DISPUTE_EVIDENCE_DAYS * DAY_MS);

    // The same event delivered again (at least once) records nothing new; the webhook log counts both deliveries.
    const [event] = await pollUntil(
      () =>
        database.db
          .select()
          .from(gatewayWebhookEvents)
          .where(eq(gatewayWebhookEvents.executionId, paid.execution.id))
          .then((rows) => rows.filter((row) => row.type === 'execution.disputeOpened')),
      (rows) => rows.length === 1,
    );
    const again = JSON.stringify({
      id: event!.eventId,
      type: 'execution.disputeOpened',
      createdAt: new Date().toISOString(),
      data: { execution: atGateway, dispute },
    });
    expect((await deliver(again)).status).toBe(200);
    // A forged one (wrong secret) is refused and changes nothing.
    expect((await deliver(again.replace(dispute.id, 'dp_forged'), 'whsec_not_the_gateway_secret')).status).toBe(401);
    const rows = await disputesOf(paid.execution.id);
    expect(rows).toHaveLength(1);
    // Recorded with the purchase and its first charge, which existed when it arrived.
    const [charge] = await database.db.select().from(charges).where(eq(charges.executionId, paid.execution.id));
    expect(rows[0]).toMatchObject({
      disputeId: dispute.id,
      subscriptionId: created.body.id,
      chargeId: charge!.id,
      amountMinor: 100,
      currency: 'USD',
      reason: 'fraudulent',
      status: 'needs_response',
    });
    expect((await asOperator<DisputeQueue>('/api/admin/queues/disputes')).total).toBe(1);
    const webhooks = await asOperator<WebhookEvents>('/api/admin/queues/webhooks');
    expect(webhooks.items.find((item) => item.event_id === event!.eventId)).toMatchObject({
      type: 'execution.disputeOpened',
      deliveries: 2,
      outcome: 'dispute-known',
    });

    const timeline = await asOperator<CustomerTimeline>(`/api/admin/customers/timeline?email=${encodeURIComponent(buyer)}`);
    const opened = timeline.events.filter((item) => item.kind === 'dispute_opened');
    expect(opened).toEqual([
      {
        at: dispute.createdAt,
        kind: 'dispute_opened',
        subscription_id: created.body.id,
        plan_name: WEEKLY_NAME,
        amount_minor: 100,
        currency: 'USD',
        detail: `fraudulent, needs_response, evidence due by ${dispute.evidenceDueBy}`,
      },
    ]);
  });

  it('a dispute that arrives before its purchase is recorded without one, and the queue and timeline find the purchase later; newest first, paged', async () => {
    const buyer = email('early');
    const paid = await payWithCard(base, WEEKLY, { number: DISPUTE_CARD });
    // The gateway's webhook gets through before the buyer's browser names the purchase.
    const [early] = await pollUntil(
      () => disputesOf(paid.execution.id),
      (found) => found.length === 1,
    );
    expect(early).toMatchObject({ subscriptionId: null, chargeId: null, amountMinor: 100 });
    const created = await http<{ id: string }>(`${base}/subs/create-no-user`, { json: purchaseBody(paid, buyer), jar: new CookieJar() });
    expect(created.status, created.text).toBe(200);

    const first = await asOperator<DisputeQueue>('/api/admin/queues/disputes?page=1&page_size=1');
    expect(first).toMatchObject({ page: 1, page_size: 1, total: 2 });
    expect(first.items).toEqual([
      expect.objectContaining({
        dispute_id: early!.disputeId,
        execution_id: paid.execution.id,
        subscription_id: created.body.id,
        email: buyer,
        plan_id: WEEKLY,
        plan_name: WEEKLY_NAME,
        amount_minor: 100,
      }),
    ]);
    const second = await asOperator<DisputeQueue>('/api/admin/queues/disputes?page=2&page_size=1');
    expect(second.items).toHaveLength(1);
    expect(second.items[0]!.execution_id).not.toBe(paid.execution.id);

    const timeline = await asOperator<CustomerTimeline>(`/api/admin/customers/timeline?email=${encodeURIComponent(buyer)}`);
    expect(timeline.events.filter((item) => item.kind === 'dispute_opened')).toEqual([
      expect.objectContaining({ subscription_id: created.body.id, plan_name: WEEKLY_NAME, amount_minor: 100 }),
    ]);
    // Nobody else's dispute.
    expect(timeline.events.filter((item) => item.kind === 'dispute_opened')).toHaveLength(1);
  });
});
