import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, serverLoggerOptions, type RootsApp } from '../../app';
import { loadConfig } from '../../config/env';
import type { Database } from '../../db/database';
import { makeWebDist, openTestDatabase, testDatabases } from '../../test/helpers';
import { receiptEmail } from './email-templates';

describe.each(testDatabases())('dev mailbox, logs and remote address on $name', ({ url }) => {
  let database: Database;
  let app: RootsApp;
  const logs: string[] = [];

  beforeAll(async () => {
    database = await openTestDatabase(url);
    const config = loadConfig({ NODE_ENV: 'test', WEB_DIST_DIR: makeWebDist(), TRUST_PROXY: 'true', COUNTRY_HEADER: 'CF-IPCountry' });
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logs.push(chunk.toString('utf8'));
        done();
      },
    });
    app = await buildApp({ config, database, loggerInstance: pino(serverLoggerOptions('info'), stream) });
  });
  afterAll(async () => {
    await app.close();
  });

  it('keeps emails without SMTP and shows them at /dev/mailbox', async () => {
    const email = receiptEmail({
      chargeId: '0f8fad5b-d9cb-469f-a165-70867728950e',
      chargedAt: new Date('2026-11-24T09:00:00Z'),
      charge: { kind: 'trial', trialDays: 3 },
      productName: 'Roots',
      planName: 'Weekly Plan',
      amountMinor: 100,
      termsText: 'Terms <b>v1</b>',
      nextChargeAt: new Date('2026-01-08T00:00:00Z'),
      nextChargeMinor: 2499,
      cardLast4: '4242',
      cancelUrl: 'http://127.0.0.1/api/cancel-subscription/x.y',
    });
    expect(await app.roots.emails.enqueue(database.db, 'receipt:test', 'jane@example.com', email)).toBe(true);
    expect(await app.roots.emails.enqueue(database.db, 'receipt:test', 'jane@example.com', email)).toBe(false);
    expect(await app.roots.emails.deliverPending()).toBe(1);
    const json = (await app.inject('/dev/mailbox.json')).json<{ messages: Array<{ subject: string; status: string; text: string }> }>();
    expect(json.messages).toHaveLength(1);
    expect(json.messages[0]).toMatchObject({ subject: 'Your Roots receipt', status: 'stored' });
    expect(json.messages[0]!.text).toContain('Next charge: $24.99 on January 8, 2026');
    const page = await app.inject('/dev/mailbox');
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('Terms &lt;b&gt;v1&lt;/b&gt;');
  });

  it('never logs an email or a link token in clear', async () => {
    expect((await app.inject({ method: 'POST', url: '/rec/subscriptions/jane.doe@example.com' })).statusCode).toBe(200);
    expect(
      (await app.inject({ method: 'POST', url: '/api/send-activation-by-email/secret-code-1/jane.doe%40example.com' })).statusCode,
    ).toBe(200);
    expect(
      (await app.inject({ method: 'POST', url: '/api/cancel-subscription/c2VjcmV0LXRva2Vu.abcdefabcdef', payload: {} })).statusCode,
    ).toBe(404);
    const all = logs.join('');
    expect(all).toContain('/rec/subscriptions/j***@example.com');
    expect(all).not.toContain('jane.doe@example.com');
    expect(all).not.toContain('jane.doe%40example.com');
    expect(all).not.toContain('secret-code-1');
    expect(all).not.toContain('c2VjcmV0LXRva2Vu');
  });

  it('answers the remote address from the trusted proxy, else from the offline GeoIP database', async () => {
    const proxied = await app.inject({ url: '/remote-addr', headers: { 'x-forwarded-for': '8.8.8.8', 'cf-ipcountry': 'de' } });
    expect(proxied.json()).toEqual({ ip: '8.8.8.8', country: 'DE' });
    expect((await app.inject({ url: '/remote-addr', headers: { 'x-forwarded-for': '8.8.8.8' } })).json()).toEqual({
      ip: '8.8.8.8',
      country: 'US',
    });
  });

  it('is not served in production', async () => {
    const production = await buildApp({
      config: loadConfig({
        NODE_ENV: 'production',
        LOG_LEVEL: 'silent',
        WEB_DIST_DIR: makeWebDist(),
        GATEWAY_MERCHANT_SECRET: 'sk_live_5Tq8Wm2Xr7Ky4Bn9Pd3Hf6Jc1Lv0Gz',
        APP_SECRET: 'app_7Hq2Vn9Kx4Lm1Pz8Rt3Ws6Yb0Cd5Fg',
        AUTH_SECRET: 'auth_3Jk8Mn2Qp5Rs9Tv1Wx4Yz7Ab0Ce6Dh',
        SMTP_URL: 'smtp://127.0.0.1:2525',
        PUBLIC_URL: 'https://roots.example',
        LEGAL_OPERATOR_NAME: 'Roots Test Operator Ltd',
        LEGAL_OPERATOR_ADDRESS: '1 Example Street, 10115 Berlin, Germany',
        LEGAL_CONTACT_EMAIL: 'support@roots.example',
        ANALYSIS_WORKERS: '1',
      }),
      database,
    });
    expect((await production.inject('/dev/mailbox.json')).statusCode).not.toBe(200);
    await production.close();
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/APP_SECRET/);
  });
});
