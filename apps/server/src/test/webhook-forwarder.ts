import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback hop for the gateway's webhooks: the gateway must know where to send before the
 * server under test has its port, so it sends here and this forwards to `target.url`. Until that is
 * set, and while a test sets `open` to false, it answers 503 (the gateway retries): so a test also
 * decides whether a webhook arrives before or after what it is about.
 */
export type WebhookForwarder = { url: string; target: { url: string }; open: boolean; close(): Promise<void> };

export async function startWebhookForwarder(): Promise<WebhookForwarder> {
  const state = { target: { url: '' }, open: true };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (!state.target.url || !state.open) {
        response.statusCode = 503;
        response.end();
        return;
      }
      const headers: Record<string, string> = {};
      for (const name of ['content-type', 'roots-signature', 'roots-webhook-id']) {
        const value = request.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      fetch(state.target.url, { method: 'POST', headers, body: Buffer.concat(chunks) })
        .then(async (answer) => {
          response.statusCode = answer.status;
          response.end(await answer.text());
        })
        .catch(() => {
          response.statusCode = 502;
          response.end();
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(state, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** Reads until `done` holds of the answer (every 50 ms, at most `timeoutMs`: a bounded loop); returns the last read. */
export async function pollUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`not done within ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
