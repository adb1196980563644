import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type RootsApp } from '../app';
import { loadConfig } from '../config/env';
import type { Database } from '../db/database';
import { ManualClock } from '../lib/clock';
import { makeWebDist, openTestDatabase } from '../test/helpers';

describe('the product-wide budget of anonymous gateway sessions', () => {
  let database: Database;
  let app: RootsApp;
  let gateway: Server;
  let gatewayCalls = 0;
  const clock = new ManualClock();

  beforeAll(async () => {
    // Stands in for the gateway only to count the calls that reach it (its answer does not matter here).
    gateway = createServer((_request, response) => {
      gatewayCalls += 1;
      response.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"busy","code":"SERVICE_UNAVAILABLE"}');
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    database = await openTestDatabase(undefined);
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      WEB_DIST_DIR: makeWebDist(),
      GATEWAY_URL: `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`,
      GATEWAY_SESSION_BUDGET_PER_MINUTE: '3',
    });
    app = await buildApp({ config, database, clock });
  });
  afterAll(async () => {
    await app.close();
    await new Promise((resolve) => gateway.close(resolve));
  });

  const initSession = (ip: string, method: 'GET' | 'POST' = 'GET') =>
    app.inject({
      method,
      url: method === 'GET' ? '/init/session?plan_id=roots_3d1_7d2499' : '/init/session',
      remoteAddress: ip,
      ...(method === 'POST' ? { payload: { plan_id: 'roots_3d1_7d2499' } } : {}),
    });

  it('callers from many IPs, each under its own limit, cannot spend more than the budget; the gateway never sees the rest', async () => {
    const answers = [];
    for (let index = 0; index < 6; index += 1) answers.push(await initSession(`203.0.113.${index + 1}`, index % 2 ? 'POST' : 'GET'));
    expect(answers.slice(0, 3).map((answer) => answer.statusCode)).not.toContain(429);
    expect(answers.slice(3).map((answer) => answer.statusCode)).toEqual([429, 429, 429]);
    expect(answers[5]!.json()).toMatchObject({ code: 'RATE_LIMITED', error: expect.any(String) });
    const reachedGateway = gatewayCalls;
    expect(reachedGateway).toBeGreaterThan(0);
    await initSession('203.0.113.99');
    expect(gatewayCalls).toBe(reachedGateway);

    // Other routes are not counted against it, and the next minute has a fresh budget.
    expect((await app.inject({ url: '/api/plans', remoteAddress: '203.0.113.50' })).statusCode).toBe(200);
    clock.advance(60_000);
    expect((await initSession('203.0.113.7')).statusCode).not.toBe(429);
  });
});
