import { request as httpRequest } from 'node:http';
import type { CardUpdateCheckout } from '@roots/contracts/card-update';
import type { InitSessionResponse } from '@roots/contracts/subscriptions';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey as browserDeriveKey } from 'altcha-lib/algorithms/web/pbkdf2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type RootsApp } from '../app';
import { DEV_SERVER_SECRETS, loadConfig } from '../config/env';
import type { Database } from '../db/database';
import { ManualClock } from '../lib/clock';
import { updateCardUrl } from '../modules/links/update-card-link';
import { startGatewayProcess, type GatewayProcess } from '../test/gateway-process';
import { makeWebDist, openTestDatabase } from '../test/helpers';
import { startProductOverHttp, type ProductOverHttp } from '../test/product-over-http';
import { http, payInSession, purchaseBody } from '../test/shopper';
import { CHECKOUT_PASS_COOKIE, CHECKOUT_PROOF_HEADER } from './merchant-api-budget';

const WEEKLY = 'roots_3d1_7d2499';
/** The configuration a deployment gets without setting anything. */
const DEFAULTS = loadConfig({});
/**
 * The server's clock, standing at the real time: the budgets' one-minute windows cannot end in the
 * middle of a flood however loaded the machine is (challenges and passes still expire by it).
 */
const standingClock = () => new ManualClock(new Date());
/** Every limit of the public API at its default (the test harness raises them otherwise). */
const DEFAULT_LIMITS = {
  RATE_LIMIT_PER_MINUTE: String(DEFAULTS.RATE_LIMIT_PER_MINUTE),
  GATEWAY_CLIENT_BUDGET_PER_MINUTE: String(DEFAULTS.GATEWAY_CLIENT_BUDGET_PER_MINUTE),
  GATEWAY_SESSION_BUDGET_PER_MINUTE: String(DEFAULTS.GATEWAY_SESSION_BUDGET_PER_MINUTE),
  GATEWAY_CHECKOUT_RESERVE_PER_MINUTE: String(DEFAULTS.GATEWAY_CHECKOUT_RESERVE_PER_MINUTE),
  GATEWAY_CLIENT_PURCHASE_BUDGET_PER_MINUTE: String(DEFAULTS.GATEWAY_CLIENT_PURCHASE_BUDGET_PER_MINUTE),
};

type Answer<T = unknown> = { status: number; body: T; cookies: string[] };

/**
 * One request from a given loopback address (the whole 127/8 is this machine): the client address
 * the server sees, as a shopper's or an attacker's own connection. JSON in and out.
 */
function fromAddress<T = unknown>(
  localAddress: string,
  url: string,
  init: { method?: 'GET' | 'POST'; json?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer<T>> {
  return new Promise((resolve, reject) => {
    const payload = init.json === undefined ? undefined : JSON.stringify(init.json);
    const method = init.method ?? (payload === undefined ? 'GET' : 'POST');
    const headers: Record<string, string | number> = { ...init.headers };
    if (payload !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
    if (method !== 'GET') headers.origin = new URL(url).origin;
    const outgoing = httpRequest(url, { method, localAddress, agent: false, headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON
        }
        const setCookie = answer.headers['set-cookie'] ?? [];
        resolve({ status: answer.statusCode ?? 0, body: body as T, cookies: setCookie.map((line) => line.split(';')[0] ?? '') });
      });
    });
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

const addresses = (from: number, count: number) => Array.from({ length: count }, (_, index) => `127.0.0.${from + index}`);
const countOf = (statuses: number[], status: number) => statuses.filter((value) => value === status).length;

/**
 * What the web app does when the checkout answers 429 CHALLENGE_REQUIRED: solve the challenge in the
 * browser (altcha-lib's solver with WebCrypto PBKDF2) and send the same request again with the
 * solution. Answers the request's answer and the pass cookie it bought.
 */
async function openCheckoutAsTheWebApp(address: string, base: string): Promise<{ init: Answer<InitSessionResponse>; cookie: string }> {
  const url = `${base}/init/session`;
  const first = await fromAddress<InitSessionResponse & { code?: string; challenge?: Challenge }>(address, url, {
    json: { plan_id: WEEKLY },
  });
  if (first.status === 200) return { init: first, cookie: '' };
  expect(first.status).toBe(429);
  expect(first.body.code).toBe('CHALLENGE_REQUIRED');
  const challenge = first.body.challenge!;
  const solution = await solveChallenge({ challenge, deriveKey: browserDeriveKey });
  expect(solution).not.toBeNull();
  const proof = Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
  const init = await fromAddress<InitSessionResponse>(address, url, {
    json: { plan_id: WEEKLY },
    headers: { [CHECKOUT_PROOF_HEADER]: proof },
  });
  const cookie = init.cookies.find((pair) => pair.startsWith(`${CHECKOUT_PASS_COOKIE}=`)) ?? '';
  return { init: { ...init, body: init.body }, cookie };
}

describe('issue 32: nine addresses flooding the checkout at the default limits do not take it from a shopper', () => {
  let gateway: GatewayProcess;
  let product: ProductOverHttp;

  beforeAll(async () => {
    // The gateway with its real per-merchant quota (600 a minute), not the tests' raised one.
    gateway = await startGatewayProcess({ GATEWAY_RATE_LIMIT_PER_MINUTE: '600' });
    product = await startProductOverHttp({ databaseUrl: undefined, gatewayUrl: gateway.url, clock: standingClock(), env: DEFAULT_LIMITS });
  }, 120_000);
  afterAll(async () => {
    await product?.close();
    await gateway?.stop();
  });

  it('junk costs nothing; 360 checkouts from 9 addresses spend the open share; a shopper and a fresh address still check out and pay', async () => {
    // The documented budget (ADR 160): 40 a client, 300 open, 100 kept for checkout passes.
    expect([
      DEFAULTS.GATEWAY_CLIENT_BUDGET_PER_MINUTE,
      DEFAULTS.GATEWAY_SESSION_BUDGET_PER_MINUTE,
      DEFAULTS.GATEWAY_CHECKOUT_RESERVE_PER_MINUTE,
    ]).toEqual([40, 300, 100]);
    const { base, proxy } = product;
    const flooders = addresses(2, 9);
    // A shopper came through the funnel before the flood (the plans of the paywall).
    const shopper = '127.0.0.30';
    expect((await fromAddress(shopper, `${base}/api/plans`)).status).toBe(200);

    // Requests that cannot succeed first: an unknown plan, a forged token. Answered, never counted.
    const junk = await inPool(
      flooders.flatMap((address) => [
        ...Array.from({ length: 20 }, () => () => fromAddress(address, `${base}/init/session?plan_id=nope`).then((a) => a.status)),
        ...Array.from(
          { length: 20 },
          () => () =>
            fromAddress(address, `${base}/init/session/token`, { json: { bearer_token: 'forged.token.x' } }).then((a) => a.status),
        ),
      ]),
      24,
    );
    expect(countOf(junk, 400) + countOf(junk, 401)).toBe(360);

    // The flood: 40 real checkouts from each of 9 addresses (each within its own budget).
    const before = proxy.merchantCalls;
    const answers = await inPool(
      flooders.flatMap((address) =>
        Array.from({ length: 40 }, () => () => fromAddress<{ code?: string }>(address, `${base}/init/session?plan_id=${WEEKLY}`)),
      ),
      24,
    );
    const statuses = answers.map((answer) => answer.status);
    // Exactly the open share went to the gateway (the junk spent nothing of any client's budget); the
    // rest is asked for work. (A loaded machine may time a gateway call out: 503, never another 5xx.)
    expect(countOf(statuses, 429)).toBe(60);
    expect(countOf(statuses, 200) + countOf(statuses, 503)).toBe(300);
    expect(countOf(statuses, 200)).toBeGreaterThan(250);
    expect(answers.filter((answer) => answer.status === 429).every((answer) => answer.body.code === 'CHALLENGE_REQUIRED')).toBe(true);
    expect(proxy.merchantCalls - before).toBe(300);
    // A client past its own budget is refused whatever it brings.
    const past = await fromAddress<{ code: string }>(flooders[0]!, `${base}/init/session?plan_id=${WEEKLY}`);
    expect(past.status).toBe(429);
    expect(past.body.code).toBe('RATE_LIMITED');

    // The shopper: asked for a challenge, solves it once, the checkout opens; its token refresh rides the pass.
    const opened = await openCheckoutAsTheWebApp(shopper, base);
    expect(opened.init.status).toBe(200);
    expect(opened.cookie).not.toBe('');
    const paid = await payInSession(opened.init.body);
    const refreshed = await fromAddress(shopper, `${base}/init/session/token`, {
      json: { bearer_token: opened.init.body.bearerToken },
      headers: { cookie: opened.cookie },
    });
    expect(refreshed.status).toBe(200);
    const created = await fromAddress<{ id: string }>(shopper, `${base}/subs/create-no-user`, {
      json: purchaseBody({ ...paid, init: opened.init.body }, 'flooded.shopper@example.com'),
    });
    expect(created.status).toBe(200);
    expect(created.body.id).toMatch(/^[0-9a-f-]{36}$/);

    // A fresh address, never seen before, the same way.
    const fresh = await openCheckoutAsTheWebApp('127.0.0.31', base);
    expect(fresh.init.status).toBe(200);

    // A solution is good once: replayed from another address it buys nothing.
    const replayed = await fromAddress<{ code: string }>('127.0.0.32', `${base}/init/session?plan_id=${WEEKLY}`);
    expect(replayed.body.code).toBe('CHALLENGE_REQUIRED');
    const challenge = (replayed.body as unknown as { challenge: Challenge }).challenge;
    const solution = await solveChallenge({ challenge, deriveKey: browserDeriveKey });
    const proof = Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
    const once = await fromAddress('127.0.0.32', `${base}/init/session?plan_id=${WEEKLY}`, { headers: { [CHECKOUT_PROOF_HEADER]: proof } });
    expect(once.status).toBe(200);
    const twice = await fromAddress<{ code: string }>('127.0.0.33', `${base}/init/session?plan_id=${WEEKLY}`, {
      headers: { [CHECKOUT_PROOF_HEADER]: proof },
    });
    expect(twice.status).toBe(429);
    expect(twice.body.code).toBe('CHALLENGE_REQUIRED');

    // The server's own call (renewals, the sweep, refunds) still has the gateway's quota.
    const execution = await http<{ id: string }>(`${gateway.url}/merchant/v1/executions/${paid.execution.id}`, {
      headers: { 'x-api-key': DEV_SERVER_SECRETS.GATEWAY_MERCHANT_SECRET },
    });
    expect(execution.status).toBe(200);
  }, 120_000);
});

describe('issue 32: floods of purchase reads never stand between a paid shopper and the subscription, its refund or its card update', () => {
  let gateway: GatewayProcess;
  let product: ProductOverHttp;

  beforeAll(async () => {
    gateway = await startGatewayProcess({ GATEWAY_RATE_LIMIT_PER_MINUTE: '600' });
    product = await startProductOverHttp({ databaseUrl: undefined, gatewayUrl: gateway.url, clock: standingClock(), env: DEFAULT_LIMITS });
  }, 120_000);
  afterAll(async () => {
    await product?.close();
    await gateway?.stop();
  });

  it('240 junk status reads from 6 addresses, then 240 real ones from 24: the shopper who paid gets the subscription, its money back and a new card', async () => {
    expect(DEFAULTS.GATEWAY_CLIENT_PURCHASE_BUDGET_PER_MINUTE).toBe(10);
    const { base } = product;
    const shopper = '127.0.1.2';
    // The shopper opens a checkout and pays at the gateway; the purchase request comes after the floods.
    const init = await fromAddress<InitSessionResponse>(shopper, `${base}/init/session?plan_id=${WEEKLY}`);
    expect(init.status).toBe(200);
    const paid = await payInSession(init.body);

    // The red team's flood: junk bodies, each answered 400, from 6 addresses.
    const junk = await inPool(
      addresses(2, 6).flatMap((address) =>
        Array.from({ length: 40 }, () => () => fromAddress(address, `${base}/subs/payment-status`, { json: {} }).then((a) => a.status)),
      ),
      24,
    );
    expect(countOf(junk, 400)).toBe(240);

    // Real purchase reads, each reaching the gateway: 24 addresses (the 6 junk senders among them,
    // whose junk spent nothing) open a checkout each, ask to buy it unpaid, then ask how it stands.
    const flooders = addresses(2, 24);
    const unpaid = await inPool(
      flooders.flatMap((address) =>
        [0].map((n) => async () => {
          const opened = await fromAddress<InitSessionResponse>(address, `${base}/init/session?plan_id=${WEEKLY}`);
          expect(opened.status).toBe(200);
          const email = `flood.${address}.${n}@example.com`;
          const body = { plan_id: WEEKLY, email, card: { execution_id: opened.body.executionId }, consent: opened.body.disclosure };
          const created = await fromAddress(address, `${base}/subs/create-no-user`, { json: body });
          return { address, email, executionId: opened.body.executionId, status: created.status };
        }),
      ),
      12,
    );
    // Not paid yet: a conflict ("still deciding"), after a read of the gateway.
    expect(unpaid.map((entry) => entry.status)).toEqual(unpaid.map(() => 409));
    const reads = await inPool(
      unpaid.flatMap(({ address, email, executionId }) =>
        Array.from(
          { length: 9 },
          () => () =>
            fromAddress(address, `${base}/subs/payment-status`, { json: { execution_id: executionId, email } }).then((a) => a.status),
        ),
      ),
      24,
    );
    // A purchase and 9 reads per address: exactly each client's budget of 10, all answered.
    expect(countOf(reads, 200)).toBe(24 * 9);
    // The 11th read of a client is its own budget's refusal.
    const over = await fromAddress(flooders[0]!, `${base}/subs/payment-status`, {
      json: { execution_id: unpaid[0]!.executionId, email: unpaid[0]!.email },
    });
    expect(over.status).toBe(429);
    // An execution's own budget (10 gateway calls a minute): a fresh address reading an execution
    // that has had its 10 this minute is refused too, whoever asks.
    const sameExecution = await fromAddress(addresses(200, 1)[0]!, `${base}/subs/payment-status`, {
      json: { execution_id: unpaid[1]!.executionId, email: unpaid[1]!.email },
    });
    expect(sameExecution.status).toBe(429);

    // 240 purchase reads this minute (more than ADR 137's shared 200): the paid shopper still gets the subscription.
    const created = await fromAddress<{ id: string }>(shopper, `${base}/subs/create-no-user`, {
      json: purchaseBody(paid, 'paid.before.the.flood@example.com'),
    });
    expect(created.status).toBe(200);
    const proofCookie = created.cookies.join('; ');

    // A new card by the update-card link: its checkout, the card form, the completion.
    const content = updateCardUrl(product.config, created.body.id, new Date()).split('/').pop()!;
    const checkout = await fromAddress<CardUpdateCheckout>(shopper, `${base}/api/update-card/${content}`, { json: {} });
    expect(checkout.status).toBe(200);
    const verification = await payInSession(checkout.body.checkout, { number: '5555555555554444' });
    const completed = await fromAddress(shopper, `${base}/api/update-card/${content}/complete`, {
      json: { execution_id: verification.execution.id },
    });
    expect(completed.status).toBe(200);

    // The money-back cancel from the browser that bought it.
    const canceled = await fromAddress<{ refunded?: string }>(shopper, `${base}/api/cancel`, {
      json: { id: created.body.id, refund: true },
      headers: { cookie: proofCookie },
    });
    expect(canceled.status).toBe(200);
    expect(canceled.body.refunded).toBeDefined();
  }, 120_000);
});

describe('the checkout budget: per client, an open share, a reserve for passes, shared across instances', () => {
  let database: Database;
  const apps: RootsApp[] = [];

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
        GATEWAY_CLIENT_BUDGET_PER_MINUTE: '4',
        GATEWAY_SESSION_BUDGET_PER_MINUTE: '2',
        GATEWAY_CHECKOUT_RESERVE_PER_MINUTE: '4',
      });
      apps.push(await buildApp({ config, database, clock: new ManualClock(new Date()) }));
    }
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  const initSession = (app: RootsApp, ip: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url: `/init/session?plan_id=${WEEKLY}`, remoteAddress: ip, headers });
  const solved = async (answer: { json: () => { challenge: Challenge } }) => {
    const { challenge } = answer.json();
    const solution = await solveChallenge({ challenge, deriveKey: browserDeriveKey });
    return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
  };

  it('spends the open share across instances, then asks for work; a pass buys 3 calls from the reserve; a forged pass buys nothing', async () => {
    const [a, b] = apps as [RootsApp, RootsApp];
    // An unknown plan costs nothing, however often.
    for (let n = 0; n < 6; n += 1)
      expect((await a.inject({ url: '/init/session?plan_id=nope', remoteAddress: '203.0.113.1' })).statusCode).toBe(400);
    expect((await initSession(a, '203.0.113.1')).statusCode).toBe(503);
    expect((await initSession(b, '203.0.113.2')).statusCode).toBe(503);
    const asked = await initSession(a, '203.0.113.3');
    expect(asked.statusCode).toBe(429);
    expect(asked.json()).toMatchObject({ code: 'CHALLENGE_REQUIRED', challenge: { parameters: { algorithm: 'PBKDF2/SHA-256' } } });
    // A made-up proof is no proof.
    const forged = await initSession(a, '203.0.113.3', { [CHECKOUT_PROOF_HEADER]: Buffer.from('{"challenge":{}}').toString('base64') });
    expect(forged.json()).toMatchObject({ code: 'CHALLENGE_REQUIRED' });
    const proof = await solved(asked);
    const paid = await initSession(b, '203.0.113.3', { [CHECKOUT_PROOF_HEADER]: proof });
    expect(paid.statusCode).toBe(503);
    const pass = paid.cookies.find((cookie) => cookie.name === CHECKOUT_PASS_COOKIE);
    expect(pass?.httpOnly).toBe(true);
    const withPass = { cookie: `${CHECKOUT_PASS_COOKIE}=${pass!.value}` };
    // Two more uses of the pass, on either instance; the fourth is past the pass.
    expect((await initSession(a, '203.0.113.3', withPass)).statusCode).toBe(503);
    expect((await initSession(b, '203.0.113.4', withPass)).statusCode).toBe(503);
    expect((await initSession(a, '203.0.113.4', withPass)).json()).toMatchObject({ code: 'CHALLENGE_REQUIRED' });
    // A pass cookie signed by someone else is none.
    expect((await initSession(a, '203.0.113.5', { cookie: `${CHECKOUT_PASS_COOKIE}=${pass!.value.slice(0, -2)}xx` })).json()).toMatchObject(
      {
        code: 'CHALLENGE_REQUIRED',
      },
    );
    // One pass a minute per address, whatever work it does: a second solution buys nothing.
    const first = await initSession(b, '203.0.113.6', { [CHECKOUT_PROOF_HEADER]: await solved(await initSession(a, '203.0.113.6')) });
    expect(first.statusCode).toBe(503);
    expect(first.cookies.some((cookie) => cookie.name === CHECKOUT_PASS_COOKIE)).toBe(true);
    const second = await initSession(a, '203.0.113.6', { [CHECKOUT_PROOF_HEADER]: await solved(await initSession(a, '203.0.113.6')) });
    expect(second.json()).toMatchObject({ code: 'CHALLENGE_REQUIRED' });
    expect(second.cookies.some((cookie) => cookie.name === CHECKOUT_PASS_COOKIE)).toBe(false);
    // A client past its own budget is refused before anything else.
    expect((await initSession(a, '203.0.113.6')).json()).toMatchObject({ code: 'RATE_LIMITED' });
  });
});
