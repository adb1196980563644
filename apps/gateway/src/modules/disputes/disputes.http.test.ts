import { eq } from 'drizzle-orm';
import { disputeStatusRank, type Dispute, type Execution, type Refund } from '@roots/contracts/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disputes } from '../../db/schema';
import { call, merchantHeaders, payByCard, startGateway, type TestGateway } from '../../test/helpers';
import { eventually, startWebhookReceiver, type WebhookReceiver } from '../../test/webhook-receiver';

const DISPUTE_CARD = '4000000000000259';

describe('a dispute after it opens (ADR 181)', () => {
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

  const merchant = <T>(path: string, init: Parameters<typeof call>[1] = {}) =>
    call<T>(`${gateway.url}/merchant/v1${path}`, { ...init, headers: merchantHeaders() });
  const disputedPayment = async (amount = 1499): Promise<{ execution: Execution; dispute: Dispute }> => {
    const { execution } = await payByCard(gateway, { number: DISPUTE_CARD }, { amount });
    const read = await merchant<Execution>(`/executions/${execution.body.id}`);
    return { execution: read.body, dispute: read.body.dispute! };
  };
  const refund = (executionId: string) =>
    merchant<{ refund: Refund } & { code?: string; message?: string }>(`/executions/${executionId}/refunds`, { json: {} });
  // Deliveries may arrive in any order: they are put back in the order the dispute moved.
  const updates = (disputeId: string) =>
    receiver.payloads
      .filter((payload) => payload.type === 'execution.disputeUpdated' && payload.data.dispute?.id === disputeId)
      .sort((a, b) => disputeStatusRank(a.data.dispute!.status) - disputeStatusRank(b.data.dispute!.status));

  it('refuses every refund while the dispute is open, and allows one after the merchant wins with evidence', async () => {
    const { execution, dispute } = await disputedPayment();
    expect(dispute.status).toBe('needs_response');

    const refused = await refund(execution.id);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'CHARGE_DISPUTED' });
    expect(JSON.stringify(refused.body)).toMatch(/cannot be refunded until the dispute ends/);
    const partial = await merchant(`/executions/${execution.id}/refunds`, { json: { amount: { value: 100, currency: 'USD' } } });
    expect(partial.status).toBe(409);

    const timeline = [{ at: '2026-11-01T10:00:00.000Z', kind: 'consent', detail: 'accepted the terms and the renewal price' }];
    const key = `evidence-${dispute.id}`;
    const answered = await merchant<Dispute>(`/disputes/${dispute.id}/evidence`, {
      json: { text: 'The customer signed in and read the report. winning_evidence', timeline },
      idempotencyKey: key,
    });
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ id: dispute.id, status: 'won' });
    expect(answered.body.evidenceSubmittedAt).not.toBeNull();
    expect(answered.body.closedAt).not.toBeNull();
    // The same key replays the first answer; the evidence is kept once.
    const replay = await merchant<Dispute>(`/disputes/${dispute.id}/evidence`, {
      json: { text: 'The customer signed in and read the report. winning_evidence', timeline },
      idempotencyKey: key,
    });
    expect(replay.body).toEqual(answered.body);
    const [stored] = await gateway.app.gateway.database.db.select().from(disputes).where(eq(disputes.id, dispute.id));
    expect(stored!.evidence).toEqual({ text: 'The customer signed in and read the report. winning_evidence', timeline });

    // Both moves are announced, signed, in order: evidence submitted, then won.
    await eventually(() => updates(dispute.id).length >= 2);
    expect(updates(dispute.id).map((payload) => payload.data.dispute?.status)).toEqual(['under_review', 'won']);
    expect(updates(dispute.id)[1]!.data.execution.dispute?.status).toBe('won');

    const allowed = await refund(execution.id);
    expect(allowed.status).toBe(201);
    expect(allowed.body.refund.amount.value).toBe(1499);
  });

  it('accepting ends the dispute as a chargeback: no refund, no evidence afterwards', async () => {
    const { execution, dispute } = await disputedPayment(2499);
    const accepted = await merchant<Dispute>(`/disputes/${dispute.id}/accept`, { method: 'POST' });
    expect(accepted.status).toBe(200);
    expect(accepted.body.status).toBe('accepted');
    const refused = await refund(execution.id);
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.body)).toMatch(/charged back/);
    const late = await merchant(`/disputes/${dispute.id}/evidence`, { json: { text: 'too late' } });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: 'INVALID_STATE' });
    await eventually(() => updates(dispute.id).length >= 1);
    expect(updates(dispute.id).map((payload) => payload.data.dispute?.status)).toEqual(['accepted']);
  });

  it('plain evidence waits under review for the bank: a decision for the merchant can be followed by a second chargeback', async () => {
    const { execution, dispute } = await disputedPayment(999);
    const answered = await merchant<Dispute>(`/disputes/${dispute.id}/evidence`, { json: { text: 'Delivered as described.' } });
    expect(answered.body.status).toBe('under_review');
    expect((await refund(execution.id)).status).toBe(409);
    const won = await merchant<Dispute>(`/disputes/${dispute.id}/decision`, { json: { outcome: 'won' } });
    expect(won.body.status).toBe('won');
    const second = await merchant<Dispute>(`/disputes/${dispute.id}/decision`, { json: { outcome: 'lost' } });
    expect(second.body.status).toBe('lost');
    const again = await merchant(`/disputes/${dispute.id}/decision`, { json: { outcome: 'won' } });
    expect(again.status).toBe(409);
    expect((await refund(execution.id)).status).toBe(409);
    await eventually(() => updates(dispute.id).length >= 3);
    expect(updates(dispute.id).map((payload) => payload.data.dispute?.status)).toEqual(['under_review', 'won', 'lost']);
  });

  it('a dispute left unanswered past its due date is lost, and evidence is refused with the date', async () => {
    const { dispute } = await disputedPayment(1299);
    await gateway.app.gateway.database.db
      .update(disputes)
      .set({ evidenceDueBy: new Date(Date.now() - 1_000) })
      .where(eq(disputes.id, dispute.id));
    const late = await merchant<{ code: string; error: string }>(`/disputes/${dispute.id}/evidence`, {
      json: { text: 'winning_evidence' },
    });
    expect(late.status).toBe(409);
    expect(late.body.error).toMatch(/evidence was due by .*the dispute is lost/);
    const read = await merchant<Dispute>(`/disputes/${dispute.id}`);
    expect(read.body.status).toBe('lost');
    expect(read.body.evidenceSubmittedAt).toBeNull();
    expect((await merchant(`/disputes/dp_unknown`)).status).toBe(404);
  });
});
