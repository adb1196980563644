import { API_MESSAGES } from '@roots/contracts';
import { GATEWAY_HEADERS, webhookPayloadSchema } from '@roots/contracts/gateway';
import { verifyGatewayWebhook } from '@roots/contracts/gateway-webhooks';
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import type { DisputeRecords } from '../disputes/dispute-records';
import type { PaymentFailures } from '../payment-failures/payment-failures';
import type { PurchasesService } from '../purchases/purchases.service';

type GatewayWebhookOptions = {
  secret: string | null;
  /** Finishes a purchase whose request died when the gateway reports its payment. */
  purchases: PurchasesService;
  clock: Clock;
  /** Keeps each received event, each declined first payment and each dispute for the operator's queues (issue 25). */
  records: { db: Db; failures: PaymentFailures; disputes: DisputeRecords };
};

/**
 * `POST /api/gateway/webhooks`: the gateway's signed notices (apps/gateway README, "Webhooks").
 * The signature is checked over the raw body (HMAC-SHA256 with the shared secret, 300 s tolerance)
 * before anything is parsed; a bad or missing one answers 401 and changes nothing. Delivery is at
 * least once, and every effect is idempotent (intents complete once), so a repeat answers 200 too.
 */
export const gatewayWebhookRoutes: FastifyPluginAsync<GatewayWebhookOptions> = async (app, { secret, purchases, clock, records }) => {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 256 * 1024 }, (_request, body, done) => done(null, body));
  app.post('/api/gateway/webhooks', async (request, reply) => {
    const raw = typeof request.body === 'string' ? request.body : '';
    const header = request.headers[GATEWAY_HEADERS.webhookSignature];
    const signed =
      secret !== null &&
      (await verifyGatewayWebhook(secret, raw, typeof header === 'string' ? header : undefined, clock.now().getTime() / 1000));
    if (!signed) return reply.status(401).send({ error: API_MESSAGES.invalidWebhookSignature, code: 'UNAUTHORIZED' });
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return reply.status(400).send({ error: API_MESSAGES.invalidWebhookBody, code: 'BAD_REQUEST' });
    }
    const payload = webhookPayloadSchema.safeParse(json);
    if (!payload.success) return reply.status(400).send({ error: API_MESSAGES.invalidWebhookBody, code: 'VALIDATION_ERROR' });
    const { execution } = payload.data.data;
    const outcome = await purchases.learnOfExecution(execution);
    const declined =
      payload.data.type === 'execution.authorizeFailed' &&
      (await records.failures.recordDeclined(records.db, execution, 'webhook')) !== 'not-ours';
    // A dispute: the one the event names (older payloads: the one on the execution), recorded once
    // per dispute id and moved forward only by its updates (ADR 181).
    const aboutDispute = payload.data.type === 'execution.disputeOpened' || payload.data.type === 'execution.disputeUpdated';
    const dispute = aboutDispute ? (payload.data.data.dispute ?? execution.dispute) : undefined;
    const recorded = dispute ? await records.disputes.record(dispute) : undefined;
    const disputed = recorded ? `dispute-${recorded}` : undefined;
    await records.failures.recordWebhook(records.db, {
      eventId: payload.data.id,
      type: payload.data.type,
      executionId: execution.id,
      outcome: disputed ?? (declined ? 'declined-first-payment' : outcome),
    });
    request.log.info({ eventId: payload.data.id, type: payload.data.type, outcome }, 'gateway webhook');
    return reply.send({ received: true });
  });
};
