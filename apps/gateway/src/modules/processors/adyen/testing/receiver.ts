import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GATEWAY_HEADERS, webhookPayloadSchema, type WebhookPayload } from '@roots/contracts/gateway';
import { verifyGatewayWebhook } from '@roots/contracts/gateway-webhooks';
import { DEV_DEFAULT_SECRETS } from '../../../../config/env';

/** The product's side of the gateway's signed webhooks: keeps each payload whose signature verifies. */
export async function startWebhookReceiver(): Promise<{ url: string; payloads: WebhookPayload[]; close(): Promise<void> }> {
  const payloads: WebhookPayload[] = [];
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
        if (signed) payloads.push(webhookPayloadSchema.parse(JSON.parse(body)));
        response.statusCode = signed ? 200 : 401;
        response.end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks`, payloads, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Polls `condition` every 10 ms until it holds, for at most `timeoutMs`. */
export async function eventually(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
