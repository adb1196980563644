import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type RootsApp } from '../app';
import { DEV_SERVER_SECRETS, loadConfig } from '../config/env';
import type { Database } from '../db/database';
import { ManualClock, systemClock } from '../lib/clock';
import { startGatewayProcess, type GatewayProcess } from '../test/gateway-process';
import { makeWebDist, openTestDatabase } from '../test/helpers';
import { startProductOverHttp, type ProductOverHttp } from '../test/product-over-http';
import { CookieJar, http, payWithCard, purchaseBody } from '../test/shopper';

const WEEKLY = 'roots_3d1_7d2499';
/** The configuration a deployment gets without setting anything. */
const DEFAULTS = loadConfig({});

/** One request from a given loopback address (the whole 127/8 is this machine); answers the status. */
function fromAddress(localAddress: string, url: string, method: 'GET' | 'POST', body?: object): Promise<number> {
  return new Promise((resolve, reject) => {
    const payload = body ? JSON.stringify(body) : undefined;
    const outgoing = httpRequest(
      url,
      {
        method,
        localAddress,
        agent: false,
        headers: payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {},
      },
      (answer) => {
        answer.resume();
        answer.on('end', () => resolve(answer.statusCode ?? 0));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

/** Runs `tasks` with at most `width` at once (a bounded flood). */
async function inPool<T>(tasks: Array<() => Promise<T>>, width: number): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < tasks.length) {
        const index = next++;
        results[index] = await tasks[index]!();
      }
    }),
  );
  return results;
}

describe('issue 22: a flood from a few addresses never starves the checkout or the server’s own gateway calls', () => {
  let gateway: GatewayProcess;
  let product: ProductOverHttp;

  beforeAll(async () => {
    // The gateway with its real per-merchant quota (600 a minute), not the tests' raised one.
    gateway = await startGatewayProcess({ GATEWAY_RATE_LIMIT_PER_MINUTE: '600' });
    product = await startProductOverHttp({
      databaseUrl: undefined,
      gatewayUrl: gateway.url,
      clock: systemClock,
      // The product's own budgets at their defaults (the test harness raises them otherwise).
      env: {
        GATEWAY_CLIENT_BUDGET_PER_MINUTE: String(DEFAULTS.GATEWAY_CLIENT_BUDGET_PER_MINUTE),
        GATEWAY_SESSION_BUDGET_PER_MINUTE: String(DEFAULTS.GATEWAY_SESSION_BUDGET_PER_MINUTE),
        GATEWAY_PURCHASE_BUDGET_PER_MINUTE: String(DEFAULTS.GATEWAY_PURCHASE_BUDGET_PER_MINUTE),
      },
    });
  }, 120_000);
  afterAll(async () => {
    await product?.close();
    await gateway?.stop();
  });

  it('six addresses sending 1 260 checkout requests spend 40 gateway calls each; a shopper still pays; the server’s own calls still pass', async () => {
    // The documented budget (ADR 137): 40 a client, 300 + 200 of the gateway's 600, 100 kept for the server.
    expect([
      DEFAULTS.GATEWAY_CLIENT_BUDGET_PER_MINUTE,
      DEFAULTS.GATEWAY_SESSION_BUDGET_PER_MINUTE,
      DEFAULTS.GATEWAY_PURCHASE_BUDGET_PER_MINUTE,
    ]).toEqual([40, 300, 200]);
    const { base, proxy } = product;
    const flooders = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5', '127.0.0.6', '127.0.0.7'];
    const before = proxy.merchantCalls;
    const tasks = flooders.flatMap((address) => [
      ...Array.from(
        { length: 150 },
        () => () =>
          fromAddress(address, `${base}/init/session/token`, 'POST', { bearer_token: `forged.${address}.token` }).then(
            (s) => [address, s] as const,
          ),
      ),
      ...Array.from(
        { length: 60 },
        () => () => fromAddress(address, `${base}/init/session?plan_id=${WEEKLY}`, 'GET').then((s) => [address, s] as const),
      ),
    ]);
    const answers = await inPool(tasks, 24);
    expect(answers).toHaveLength(1_260);
    for (const address of flooders) {
      const own = answers.filter(([from]) => from === address);
      const passed = own.filter(([, status]) => status !== 429).length;
      expect(passed, address).toBeLessThanOrEqual(40);
      expect(own.filter(([, status]) => status === 429).length, address).toBeGreaterThanOrEqual(170);
      expect(
        own.some(([, status]) => status >= 500 && status !== 503),
        address,
      ).toBe(false);
    }
    // What reached the gateway: at most the six clients' budgets, far under its quota of 600.
    expect(proxy.merchantCalls - before).toBeLessThanOrEqual(6 * 40);

    // A shopper from another address opens a checkout, pays and gets the subscription.
    const paid = await payWithCard(base, WEEKLY);
    const jar = new CookieJar();
    const created = await http<{ id: string }>(`${base}/subs/create-no-user`, { json: purchaseBody(paid, 'still.pays@example.com'), jar });
    expect(created.status, created.text).toBe(200);
    // The server's own call (as renewals, the sweep and refunds make them, with the merchant key) still has the gateway's quota.
    const execution = await http<{ id: string }>(`${gateway.url}/merchant/v1/executions/${paid.execution.id}`, {
      headers: { 'x-api-key': DEV_SERVER_SECRETS.GATEWAY_MERCHANT_SECRET },
    });
    expect(execution.status).toBe(200);
    expect(execution.body.id).toBe(paid.execution.id);
  }, 120_000);
});

describe('the merchant-API budget: per client first, then per share, shared across instances', () => {
  let database: Database;
  const apps: RootsApp[] = [];
  const clock = new ManualClock();

  beforeAll(async () => {
    database = await openTestDatabase(undefined);
    // Two instances on one database, with a gateway nobody listens on (what reaches it answers 503).
    for (let index = 0; index < 2; index += 1) {
      const config = loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        WEB_DIST_DIR: makeWebDist(),
        GATEWAY_URL: 'http://127.0.0.1:9',
        GATEWAY_TIMEOUT_MS: '200',
        GATEWAY_CLIENT_BUDGET_PER_MINUTE: '2',
        GATEWAY_SESSION_BUDGET_PER_MINUTE: '5',
        GATEWAY_PURCHASE_BUDGET_PER_MINUTE: '100',
      });
      apps.push(await buildApp({ config, database, clock }));
    }
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  const initSession = (app: RootsApp, ip: string) =>
    app.inject({ method: 'GET', url: `/init/session?plan_id=${WEEKLY}`, remoteAddress: ip });

  it('one client past its budget is refused on every instance; other clients go on until the share is spent', async () => {
    const [a, b] = apps as [RootsApp, RootsApp];
    expect((await initSession(a, '203.0.113.1')).statusCode).not.toBe(429);
    expect((await initSession(b, '203.0.113.1')).statusCode).not.toBe(429);
    const third = await initSession(a, '203.0.113.1');
    expect(third.statusCode).toBe(429);
    expect(third.json()).toMatchObject({ code: 'RATE_LIMITED' });
    // Three more clients: the share of 5 (two spent) leaves room for three calls, then every client is refused.
    for (const ip of ['203.0.113.2', '203.0.113.3', '203.0.113.4']) expect((await initSession(b, ip)).statusCode, ip).not.toBe(429);
    const spent = await initSession(a, '203.0.113.5');
    expect(spent.statusCode).toBe(429);
    expect(spent.json()).toMatchObject({ code: 'RATE_LIMITED', error: 'Too many checkouts are starting right now, try again in a minute' });
    // Routes outside the merchant API are not counted, and the next minute has fresh budgets.
    expect((await a.inject({ url: '/api/plans', remoteAddress: '203.0.113.1' })).statusCode).toBe(200);
    clock.advance(60_000);
    expect((await initSession(a, '203.0.113.1')).statusCode).not.toBe(429);
  });
});
