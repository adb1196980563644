import { randomUUID } from 'node:crypto';
import { DISPUTE_EVIDENCE_DAYS, type Execution, type WebhookPayload } from '@roots/contracts/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, merchantHeaders, payByCard, startGateway, type TestGateway } from '../../test/helpers';
import { eventually, startWebhookReceiver, type WebhookReceiver } from '../../test/webhook-receiver';

const DISPUTE_CARD = '4000000000000259';
const DAY_MS = 24 * 60 * 60 * 1000;

describe('the dispute test card (4000000000000259)', () => {
  let receiver: WebhookReceiver;
  let gateway: TestGateway;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    gateway = await startGateway({ GATEWAY_WEBHOOK_URLS: receiver.url, GATEWAY_WEBHOOK_RETRY_BASE_MS: '20' });
  });
  afterAll(async () => {
    await gateway.close();
    await receiver.close();
  });

  const merchantExecution = async (id: string) =>
    (await call<Execution>(`${gateway.url}/merchant/v1/executions/${id}`, { headers: merchantHeaders() })).body;
  const eventsOf = (executionId: string, type: WebhookPayload['type']) =>
    receiver.payloads.filter((payload) => payload.type === type && payload.data.execution.id === executionId);

  it('pays with the shopper present, then the execution carries a fraudulent dispute and one signed disputeOpened webhook is delivered', async () => {
    const before = Date.now();
    const { execution } = await payByCard(gateway, { number: DISPUTE_CARD }, { amount: 2499 });
    expect(execution.status).toBe(200);
    expect(execution.body.status).toBe('authorizeSuccessful');

    const read = await merchantExecution(execution.body.id);
    expect(read.status).toBe('authorizeSuccessful');
    const dispute = read.dispute;
    expect(dispute).toMatchObject({
      executionId: read.id,
      amount: { value: 2499, currency: 'USD' },
      reason: 'fraudulent',
      status: 'needs_response',
    });
    expect(dispute!.id).toMatch(/^dp_[A-Za-z0-9_-]{16}$/);
    const opened = Date.parse(dispute!.createdAt);
    expect(opened).toBeGreaterThanOrEqual(before - 1_000);
    expect(opened).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(dispute!.evidenceDueBy) - opened).toBe(DISPUTE_EVIDENCE_DAYS * DAY_MS);

    await eventually(
      () => eventsOf(read.id, 'execution.disputeOpened').length >= 1 && eventsOf(read.id, 'execution.authorizeSuccessful').length >= 1,
    );
    // Every delivery of this execution's events is done (none pending, none retried): what arrived is all there is.
    const outbox = gateway.app.gateway.database.db.query.webhookDeliveries;
    const ofThisExecution = async () => (await outbox.findMany()).filter((row) => row.payload.includes(read.id));
    await eventually(async () => (await ofThisExecution()).every((row) => row.status === 'delivered'));
    expect((await ofThisExecution()).map((row) => [row.eventType, row.attempts]).sort()).toEqual([
      ['execution.authorizeSuccessful', 1],
      ['execution.disputeOpened', 1],
    ]);
    const disputed = eventsOf(read.id, 'execution.disputeOpened');
    expect(disputed).toHaveLength(1);
    expect(disputed[0]!.data.dispute).toEqual(dispute);
    expect(disputed[0]!.data.execution.dispute).toEqual(dispute);
    expect(eventsOf(read.id, 'execution.authorizeSuccessful')).toHaveLength(1);
    expect(receiver.unsigned).toBe(0);
  });

  it('a merchant-initiated charge on the card succeeds and is disputed too; a plain card is never disputed', async () => {
    const holderReference = `holder-dispute-${randomUUID()}`;
    const { instrument } = await payByCard(gateway, { number: DISPUTE_CARD }, { storeInstrument: true, holderReference });
    const charge = await call<Execution>(`${gateway.url}/merchant/v1/charges`, {
      headers: merchantHeaders(),
      json: { instrumentId: instrument.id, holderReference, amount: { value: 4800, currency: 'USD' }, reason: 'recurring' },
    });
    expect(charge.status).toBe(201);
    expect(charge.body).toMatchObject({
      status: 'authorizeSuccessful',
      merchantInitiated: true,
      dispute: { amount: { value: 4800, currency: 'USD' }, reason: 'fraudulent', status: 'needs_response' },
    });
    await eventually(() => eventsOf(charge.body.id, 'execution.disputeOpened').length >= 1);
    expect(eventsOf(charge.body.id, 'execution.disputeOpened')[0]!.data.dispute?.id).toBe(charge.body.dispute!.id);

    const plain = await payByCard(gateway, { number: '4242424242424242' });
    const plainRead = await merchantExecution(plain.execution.body.id);
    expect(plainRead.status).toBe('authorizeSuccessful');
    expect(plainRead.dispute).toBeUndefined();
    await eventually(() => eventsOf(plainRead.id, 'execution.authorizeSuccessful').length >= 1);
    expect(eventsOf(plainRead.id, 'execution.disputeOpened')).toEqual([]);
  });
});
