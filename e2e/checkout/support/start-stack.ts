// Starts what the checkout journeys need, isolated from the root Playwright web servers: a real
// gateway (in-memory PGlite, serving the secure-field frames) on a free port, and a tiny
// merchant site on another port and host name (another origin and site). Prints one JSON line.
// Run: node --import tsx e2e/checkout/support/start-stack.ts
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildGatewayApp } from '../../../apps/gateway/src/app';
import { DEV_DEFAULT_SECRETS, loadGatewayConfig } from '../../../apps/gateway/src/config/env';
import { adyenEnv } from '../../../apps/gateway/src/modules/processors/adyen/testing/adyen-env';
import { startPrism } from '../../../apps/gateway/src/modules/processors/adyen/testing/prism';
import { merchantPage } from './merchant-page';

const root = new URL('../../../', import.meta.url);
// CHECKOUT_STACK_PROCESSOR=adyen: cards go to the Adyen connector, pointed at Prism on Adyen's definition.
const prism = process.env.CHECKOUT_STACK_PROCESSOR === 'adyen' ? await startPrism() : undefined;
let gatewayUrl = '';
const sdk = () => readFileSync(new URL('packages/checkout/dist/roots-checkout.js', root));
const merchant = createServer(async (request, response) => {
  const url = new URL(request.url ?? '/', 'http://localhost');
  try {
    if (url.pathname === '/roots-checkout.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(sdk());
    } else if (url.pathname === '/init/session') {
      // The merchant server asks the gateway server-to-server (never the browser with the key).
      const methods = url.searchParams.get('methods');
      const answer = await fetch(`${gatewayUrl}/merchant/v1/sessions`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-api-key': DEV_DEFAULT_SECRETS.GATEWAY_MERCHANT_SECRET,
          'idempotency-key': crypto.randomUUID(),
        },
        body: JSON.stringify({
          amount: { value: Number(url.searchParams.get('amount') ?? 2499), currency: 'USD' },
          holderReference: url.searchParams.get('holder') ?? `holder-${crypto.randomUUID()}`,
          ...(methods ? { paymentMethods: methods.split(',') } : {}),
          ...(url.searchParams.get('ttl') ? { tokenTtlSeconds: Number(url.searchParams.get('ttl')) } : {}),
        }),
      });
      response.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
    } else if (url.pathname === '/init/session/token' && request.method === 'POST') {
      // The merchant's getBearerToken: a fresh token of the same session, by the merchant API.
      let body = '';
      for await (const chunk of request) body += String(chunk);
      const { bearer_token: bearerToken } = JSON.parse(body) as { bearer_token: string };
      const answer = await fetch(`${gatewayUrl}/merchant/v1/sessions/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': DEV_DEFAULT_SECRETS.GATEWAY_MERCHANT_SECRET },
        body: JSON.stringify({ bearerToken }),
      });
      response.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
    } else if (url.pathname === '/adyen-requests' && prism) {
      // What the gateway sent to Prism (paths, Prism's statuses, idempotency keys; never bodies).
      const seen = prism.seen.map(({ path, status, idempotencyKey }) => ({ path, status, idempotencyKey }));
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(seen));
    } else if (url.pathname === '/' || url.pathname === '/checkout') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(merchantPage());
    } else response.writeHead(404).end('not found');
  } catch (error) {
    response.writeHead(500).end(String(error));
  }
});
await new Promise<void>((resolve) => merchant.listen(0, '127.0.0.1', resolve));
const merchantUrl = `http://localhost:${(merchant.address() as AddressInfo).port}`;
// The same pages on a second port: an origin the gateway does not list as the merchant's.
const stranger = createServer((request, response) => merchant.emit('request', request, response));
await new Promise<void>((resolve) => stranger.listen(0, '127.0.0.1', resolve));
const strangerUrl = `http://localhost:${(stranger.address() as AddressInfo).port}`;

// The gateway knows the merchant's page origin only (secure by default: frames, pages and messages).
const config = loadGatewayConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: process.env.GATEWAY_LOG_LEVEL ?? 'silent',
  GATEWAY_DATA_DIR: 'memory://',
  GATEWAY_SLOW_AUTH_POLLS: '2',
  GATEWAY_MERCHANT_ORIGINS: merchantUrl,
  ...(prism ? adyenEnv(prism.url) : {}),
});
const gateway = await buildGatewayApp({ config });
gatewayUrl = await gateway.listen({ host: '127.0.0.1', port: 0 });
config.publicUrl = gatewayUrl;
console.info(JSON.stringify({ gatewayUrl, merchantUrl, strangerUrl }));
const stop = async () => {
  merchant.close();
  stranger.close();
  await gateway.close();
  await prism?.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
