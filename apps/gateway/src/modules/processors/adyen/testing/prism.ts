import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Adyen's published definitions, copied into the repository with their licence (test-fixtures/adyen-openapi/SOURCES.md). */
export const ADYEN_OPENAPI_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../../test-fixtures/adyen-openapi');
export const CHECKOUT_DEFINITION = join(ADYEN_OPENAPI_DIR, 'CheckoutService-v71.json');
export const WEBHOOKS_DEFINITION = join(ADYEN_OPENAPI_DIR, 'Webhooks-v1.json');

type Json = Record<string, unknown>;
type Examples = Record<string, { value?: unknown; $ref?: string }>;

/** A named example of Adyen's definition (`#/components/examples/<name>`), as Adyen published it. */
export function definitionExample<T = Json>(file: string, name: string): T {
  const definition = JSON.parse(readFileSync(file, 'utf8')) as { components: { examples: Examples } };
  const example = definition.components.examples[name];
  if (!example || example.value === undefined) throw new Error(`no example ${name} in ${file}`);
  return structuredClone(example.value) as T;
}

/** The example of a webhook in Webhooks-v1.json (`webhooks./<EVENT>`), resolved. */
export function webhookExample<T = Json>(eventCode: string): T {
  const definition = JSON.parse(readFileSync(WEBHOOKS_DEFINITION, 'utf8')) as {
    webhooks: Record<string, { post: { requestBody: { content: { 'application/json': { examples: Examples } } } } }>;
    components: { examples: Examples };
  };
  const examples = definition.webhooks[`/${eventCode}`]?.post.requestBody.content['application/json'].examples ?? {};
  const first = Object.values(examples)[0];
  if (!first) throw new Error(`no example for webhook ${eventCode}`);
  const value = first.value ?? definition.components.examples[first.$ref?.split('/').pop() ?? '']?.value;
  if (value === undefined) throw new Error(`no example value for webhook ${eventCode}`);
  return structuredClone(value) as T;
}

/** What the network between the gateway and Prism did with one request. */
export type SeenRequest = {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  prefer: string | undefined;
  /** Prism's status: 422 means the request broke Adyen's definition. */
  status: number;
  /** The request body (test memory only: first payments carry test card numbers). */
  body: Json;
  /** Prism's answer body. */
  answer: string;
  /** The body sent back instead of Prism's, when a scenario Prism's examples cannot play replaced it. */
  replacedWith?: Json;
  /** The connection was dropped without an answer (a timeout as the gateway sees it). */
  dropped?: boolean;
};

/** What to do with the next request to a path: choose Prism's example, replace Prism's 200 answer, or drop it. */
export type Plan = { prefer?: string; replace?: (prismAnswer: Json) => Json; drop?: boolean };

export type PrismMock = {
  /** The base URL the gateway is pointed at (ADYEN_CHECKOUT_URL). */
  url: string;
  seen: SeenRequest[];
  /** Queues plans for the next requests whose path ends with `suffix` (FIFO). */
  plan(suffix: string, ...plans: Plan[]): void;
  /** Requests from the gateway (each carries an idempotency key) Prism refused as breaking Adyen's definition. */
  invalid(): SeenRequest[];
  stop(): Promise<void>;
};

/** Prism's choice when no plan says otherwise: Adyen's own examples of each operation. */
function defaultPrefer(path: string, body: Json): string | undefined {
  if (path.endsWith('/payments/details')) return 'example=00.redirect';
  if (path.endsWith('/refunds')) return 'example=refund';
  if (path.endsWith('/cancels')) return 'example=cancel-with-psp-reference';
  if (path.endsWith('/payments'))
    return body.storePaymentMethod === true ? 'example=subscription-first-transaction' : 'example=card-direct';
  return undefined;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

async function startPrismProcess(): Promise<{ child: ChildProcess; url: string }> {
  const bin = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../../../../node_modules/.bin/prism');
  for (let tries = 0; tries < 3; tries += 1) {
    const port = await freePort();
    const child = spawn(bin, ['mock', '--errors', '-h', '127.0.0.1', '-p', String(port), CHECKOUT_DEFINITION], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const started = await new Promise<boolean>((done) => {
      let output = '';
      const timer = setTimeout(() => done(false), 90_000);
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Prism is listening')) {
          clearTimeout(timer);
          done(true);
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('exit', () => {
        clearTimeout(timer);
        done(false);
      });
    });
    if (started) {
      // Prism logs every request; nobody reads it (the bodies carry test card numbers).
      child.stdout?.removeAllListeners('data').resume();
      child.stderr?.removeAllListeners('data').resume();
      const url = `http://127.0.0.1:${port}`;
      // Prism prepares its validators on the first request (seconds on a busy machine): done here,
      // so the gateway's per-call timeout never meets that first delay.
      await fetch(`${url}/payments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': 'warm-up', prefer: 'example=card-direct' },
        body: JSON.stringify(definitionExample(CHECKOUT_DEFINITION, 'post-payments-card-direct')),
      });
      return { child, url };
    }
    child.kill();
  }
  throw new Error('Prism did not start');
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((done, fail) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => done(text));
    request.on('error', fail);
  });
}

/**
 * `prism mock --errors` on Adyen's Checkout v71 definition (the double of Adyen: it refuses with
 * 422 any request that breaks the definition and answers Adyen's named examples), behind a
 * loopback hop that plays the network: it picks the example (`Prefer`), drops a connection to
 * make a timeout, or, for what no example of the definition covers (a Refused payment), replaces
 * Prism's answer after Prism validated the request. Everything it saw is in `seen`.
 */
export async function startPrism(): Promise<PrismMock> {
  const prism = await startPrismProcess();
  const plans = new Map<string, Plan[]>();
  const seen: SeenRequest[] = [];
  const held: ServerResponse[] = [];

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const text = await readBody(request);
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const body = (text ? JSON.parse(text) : {}) as Json;
    const suffix = [...plans.keys()].find((key) => path.endsWith(key) && (plans.get(key)?.length ?? 0) > 0);
    const plan = suffix ? plans.get(suffix)?.shift() : undefined;
    const idempotencyKey = request.headers['idempotency-key'] as string | undefined;
    if (plan?.drop) {
      seen.push({ method: request.method ?? 'POST', path, idempotencyKey, prefer: undefined, status: 0, body, answer: '', dropped: true });
      held.push(response);
      return;
    }
    const prefer = plan?.prefer ?? defaultPrefer(path, body);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    for (const name of ['x-api-key', 'idempotency-key']) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    if (prefer) headers.prefer = prefer;
    const answer = await new Promise<{ status: number; text: string }>((done, fail) => {
      const upstream = httpRequest(`${prism.url}${request.url ?? '/'}`, { method: request.method ?? 'POST', headers }, (res) => {
        readBody(res).then((bodyText) => done({ status: res.statusCode ?? 0, text: bodyText }), fail);
      });
      upstream.on('error', fail);
      upstream.end(text);
    });
    const entry: SeenRequest = {
      method: request.method ?? 'POST',
      path,
      idempotencyKey,
      prefer,
      status: answer.status,
      body,
      answer: answer.text,
    };
    seen.push(entry);
    let out = answer.text;
    if (plan?.replace && answer.status >= 200 && answer.status < 300) {
      entry.replacedWith = plan.replace(JSON.parse(answer.text) as Json);
      out = JSON.stringify(entry.replacedWith);
    }
    response.writeHead(answer.status, { 'content-type': 'application/json' }).end(out);
  };

  const hop: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(502).end(String(error));
    });
  });
  await new Promise<void>((done) => hop.listen(0, '127.0.0.1', done));
  const { port } = hop.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    plan(suffix, ...next) {
      plans.set(suffix, [...(plans.get(suffix) ?? []), ...next]);
    },
    invalid: () => seen.filter((entry) => entry.status === 422 && entry.idempotencyKey !== undefined),
    async stop() {
      for (const response of held) response.destroy();
      hop.closeAllConnections();
      await new Promise<void>((done) => hop.close(() => done()));
      prism.child.kill();
    },
  };
}
