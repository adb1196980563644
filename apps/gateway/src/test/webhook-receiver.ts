import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GATEWAY_HEADERS, webhookPayloadSchema, type WebhookPayload } from '@roots/contracts/gateway';
import { verifyGatewayWebhook } from '@roots/contracts/gateway-webhooks';
import { DEV_DEFAULT_SECRETS } from '../config/env';

export type WebhookReceiver = { url: string; readonly payloads: WebhookPayload[]; readonly unsigned: number; close(): Promise<void> };

/** A loopback receiver answering 200 to every webhook, keeping each payload whose signature verifies. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const state = { payloads: [] as WebhookPayload[], unsigned: 0 };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const signature = request.headers[GATEWAY_HEADERS.webhookSignature];
      void verifyGatewayWebhook(
        DEV_DEFAULT_SECRETS.GATEWAY_WEBHOOK_SECRET,
        body,
        typeof signature === 'string' ? signature : undefined,
        Math.floor(Date.now() / 1000),
      ).then((signed) => {
        if (signed) state.payloads.push(webhookPayloadSchema.parse(JSON.parse(body)));
        else state.unsigned += 1;
        response.statusCode = 200;
        response.end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    get payloads() {
      return state.payloads;
    },
    get unsigned() {
      return state.unsigned;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Polls `condition` every 10 ms until it holds, for at most `timeoutMs` (a bounded loop). */
export async function eventually(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
