import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GATEWAY_HEADERS, webhookPayloadSchema } from '@roots/contracts/gateway';
import { verifyGatewayWebhook } from '@roots/contracts/gateway-webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_DEFAULT_SECRETS } from '../../config/env';
import { call, merchantHeaders, payByCard, startGateway, type TestGateway } from '../../test/helpers';
import { signWebhook } from './webhook-signature';
import { retryDelayMs } from './webhooks.service';

type Received = { path: string; headers: IncomingHttpHeaders; body: string };

/** A real local receiver: `/never` always answers 500; other paths 500 for the first `failFirst` requests, then 200. */
async function startReceiver(failFirst: number): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const counts = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const count = (counts.get(path) ?? 0) + 1;
      counts.set(path, count);
      response.statusCode = path === '/never' || count <= failFirst ? 500 : 200;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Waits (bounded by the test timeout) until `condition` holds; asserts nothing about time. */
async function eventually(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('webhook signature', () => {
  const secret = 'whsec_test_secret_value';
  it("is what the receivers' check accepts, and it rejects tampering, other secrets and stale timestamps", async () => {
    const body = '{"id":"evt_1"}';
    const header = signWebhook(secret, body, 1_000);
    expect(header).toMatch(/^t=1000,v1=[0-9a-f]{64}$/);
    expect(await verifyGatewayWebhook(secret, body, header, 1_010)).toBe(true);
    expect(await verifyGatewayWebhook(secret, `${body} `, header, 1_010)).toBe(false);
    expect(await verifyGatewayWebhook('whsec_other_secret_val', body, header, 1_010)).toBe(false);
    expect(await verifyGatewayWebhook(secret, body, header, 1_000 + 301)).toBe(false);
    expect(await verifyGatewayWebhook(secret, body, 't=1000,v1=zz', 1_000)).toBe(false);
    expect(await verifyGatewayWebhook(secret, body, undefined, 1_000)).toBe(false);
  });

  it('agrees with the Web Crypto verifier receivers import from @roots/contracts/gateway-webhooks', async () => {
    const body = '{"id":"evt_2","type":"execution.authorizeSuccessful"}';
    const header = signWebhook(secret, body, 2_000);
    expect(await verifyGatewayWebhook(secret, body, header, 2_100)).toBe(true);
    expect(await verifyGatewayWebhook(secret, body.replace('2', '3'), header, 2_100)).toBe(false);
    expect(await verifyGatewayWebhook('whsec_other_secret_val', body, header, 2_100)).toBe(false);
    expect(await verifyGatewayWebhook(secret, body, header, 2_000 + 301)).toBe(false);
    expect(await verifyGatewayWebhook(secret, body, 'garbage', 2_000)).toBe(false);
  });

  it('backs off exponentially with bounded jitter', () => {
    expect(retryDelayMs(1, 1_000, () => 0.5)).toBe(1_000);
    expect(retryDelayMs(2, 1_000, () => 0.5)).toBe(2_000);
    expect(retryDelayMs(4, 1_000, () => 0.5)).toBe(8_000);
    expect(retryDelayMs(3, 1_000, () => 0)).toBe(3_200);
    expect(retryDelayMs(3, 1_000, () => 1)).toBe(4_800);
    expect(retryDelayMs(40, 1_000, () => 0.5)).toBe(3_600_000);
  });
});

describe('webhook delivery over HTTP', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let gateway: TestGateway;

  beforeAll(async () => {
    receiver = await startReceiver(2);
    gateway = await startGateway({
      GATEWAY_WEBHOOK_URLS: `${receiver.url}/ok,${receiver.url}/never`,
      GATEWAY_WEBHOOK_RETRY_BASE_MS: '20',
      GATEWAY_WEBHOOK_MAX_ATTEMPTS: '3',
    });
  });
  afterAll(async () => {
    await gateway.close();
    await receiver.close();
  });

  it('signs every delivery, retries failures with back-off until a 2xx, and records the outcome', async () => {
    const { execution } = await payByCard(gateway, { number: '4242424242424242' }, { storeInstrument: true });
    await eventually(() => receiver.received.filter((r) => r.path === '/ok').length >= 3);
    const deliveries = receiver.received.filter((r) => r.path === '/ok');
    expect(deliveries).toHaveLength(3);
    const nowSeconds = Math.floor(Date.now() / 1000);
    for (const delivery of deliveries) {
      const signature = delivery.headers[GATEWAY_HEADERS.webhookSignature];
      expect(await verifyGatewayWebhook(DEV_DEFAULT_SECRETS.GATEWAY_WEBHOOK_SECRET, delivery.body, String(signature), nowSeconds)).toBe(
        true,
      );
      expect(await verifyGatewayWebhook('whsec_wrong_secret_xyz', delivery.body, String(signature), nowSeconds)).toBe(false);
    }
    const payloads = deliveries.map((delivery) => webhookPayloadSchema.parse(JSON.parse(delivery.body)));
    expect(new Set(payloads.map((payload) => payload.id)).size).toBe(1);
    expect(payloads[0]).toMatchObject({
      type: 'execution.authorizeSuccessful',
      data: { execution: { id: execution.body.id, status: 'authorizeSuccessful' } },
    });
    expect(deliveries[0]?.headers[GATEWAY_HEADERS.webhookId]).toBe(payloads[0]?.id);

    const repository = gateway.app.gateway.database;
    await eventually(async () => {
      const rows = await repository.db.query.webhookDeliveries.findMany();
      return rows.filter((row) => row.eventId === payloads[0]?.id).every((row) => row.status !== 'pending');
    });
    const rows = await repository.db.query.webhookDeliveries.findMany();
    const ok = rows.find((row) => row.url.endsWith('/ok') && row.eventId === payloads[0]?.id);
    expect(ok).toMatchObject({ status: 'delivered', attempts: 3 });
  });

  it('gives up after GATEWAY_WEBHOOK_MAX_ATTEMPTS and emits refund events', async () => {
    const holderReference = `holder-webhook-${Date.now()}`;
    const { session } = await payByCard(gateway, { number: '5555555555554444' }, { holderReference });
    const refund = await call(`${gateway.url}/merchant/v1/executions/${session.executionId}/refunds`, {
      headers: merchantHeaders(),
      json: {},
    });
    expect(refund.status).toBe(201);
    await eventually(() =>
      receiver.received.some((r) => r.path === '/ok' && (JSON.parse(r.body) as { type: string }).type === 'refund.succeeded'),
    );
    const database = gateway.app.gateway.database;
    const never = async () => (await database.db.query.webhookDeliveries.findMany()).filter((row) => row.url.endsWith('/never'));
    await eventually(async () => (await never()).length >= 3 && (await never()).every((row) => row.status === 'failed'));
    for (const row of await never()) expect(row).toMatchObject({ status: 'failed', attempts: 3, lastError: 'HTTP 500' });
  });
});
