import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, serverLoggerOptions, type RootsApp } from '../../app';
import { loadConfig } from '../../config/env';
import type { Database } from '../../db/database';
import { makeWebDist, openTestDatabase, testDatabases } from '../../test/helpers';

/**
 * Issue 22: sign-in limits that see the client (the server's TRUST_PROXY rule, not a bucket shared
 * by everyone), per address and per email on code requests, per address on guesses; a NUL in a
 * sign-in body is a 400 that logs nothing. Default limits, in production mode as well.
 */

const ORIGIN = 'http://127.0.0.1:3000';
const json = { origin: ORIGIN, 'content-type': 'application/json' };

function askCode(app: RootsApp, email: string, clientIp: string) {
  return app.inject({
    method: 'POST',
    url: '/api/auth/email-otp/send-verification-otp',
    headers: { ...json, 'x-forwarded-for': clientIp },
    payload: { email, type: 'sign-in' },
  });
}
function guess(app: RootsApp, email: string, clientIp: string) {
  return app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email-otp',
    headers: { ...json, 'x-forwarded-for': clientIp },
    payload: { email, otp: '000000' },
  });
}

describe.each(testDatabases())('sign-in limits on $name', ({ url }) => {
  let database: Database;
  const apps: RootsApp[] = [];
  const logs: string[] = [];
  const build = async (env: Record<string, string>) => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logs.push(chunk.toString('utf8'));
        done();
      },
    });
    const app = await buildApp({
      config: loadConfig({ NODE_ENV: 'test', WEB_DIST_DIR: makeWebDist(), RATE_LIMIT_PER_MINUTE: '100000', ...env }),
      database,
      loggerInstance: pino(serverLoggerOptions('info'), stream),
    });
    apps.push(app);
    return app;
  };
  const tag = url ? 'pg' : 'pglite';

  beforeAll(async () => {
    database = await openTestDatabase(url);
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  it('production: one client asking many codes does not lock out another, and a spoofed address gets no fresh bucket', async () => {
    const app = await build({
      NODE_ENV: 'production',
      TRUST_PROXY: '127.0.0.1',
      APP_SECRET: 'Qm9vdHN0cmFwIGEgcmVhbCBzZWNyZXQgZm9yIHRlc3Rz',
      AUTH_SECRET: 'QW5vdGhlciByZWFsIHNlY3JldCBmb3IgdGhlIHRlc3Rz',
      GATEWAY_MERCHANT_SECRET: 'sk_live_8f3a9c2e71d04b5a6e0c4b7d91f2a83e',
      SMTP_URL: 'smtp://127.0.0.1:9',
      PUBLIC_URL: 'https://roots.example',
      LEGAL_OPERATOR_NAME: 'Roots Test Operator Ltd',
      LEGAL_OPERATOR_ADDRESS: '1 Example Street, 10115 Berlin, Germany',
      LEGAL_CONTACT_EMAIL: 'support@roots.example',
      ANALYSIS_WORKERS: '1',
      BILLING_SCHEDULER_ENABLED: 'false',
    });
    // The proxy (127.0.0.1, trusted) names the client: ten codes for ten emails from one client pass...
    for (let index = 0; index < 10; index += 1) {
      expect((await askCode(app, `many${index}.prod.${tag}@example.com`, '203.0.113.7')).statusCode).toBe(200);
    }
    // ...the eleventh is refused, with the server's error shape,
    const refused = await askCode(app, `eleventh.prod.${tag}@example.com`, '203.0.113.7');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
    // while another client still gets its code (better-auth's shared bucket locked everyone out after 3).
    expect((await askCode(app, `other.prod.${tag}@example.com`, '198.51.100.4')).statusCode).toBe(200);
  });

  it('without a trusted proxy, X-Forwarded-For is ignored: a spoofed header gets no fresh bucket', async () => {
    const app = await build({ TRUST_PROXY: 'false' });
    for (let index = 0; index < 10; index += 1) {
      expect((await askCode(app, `spoof${index}.${tag}@example.com`, `192.0.2.${index}`)).statusCode).toBe(200);
    }
    expect((await askCode(app, `spoof-last.${tag}@example.com`, '192.0.2.200')).statusCode).toBe(429);
  });

  it('one email receives at most 5 codes an hour, whoever asks (no email bombing)', async () => {
    const app = await build({ TRUST_PROXY: 'true' });
    const target = `bombed.${tag}@example.com`;
    for (let index = 0; index < 5; index += 1) expect((await askCode(app, target, `198.18.0.${index}`)).statusCode).toBe(200);
    expect((await askCode(app, target.toUpperCase(), '198.18.0.99')).statusCode).toBe(429);
    expect((await askCode(app, `not-bombed.${tag}@example.com`, '198.18.0.99')).statusCode).toBe(200);
  });

  it('one client tries at most 30 codes an hour, across codes and emails (no brute force)', async () => {
    const app = await build({ TRUST_PROXY: 'true' });
    for (let index = 0; index < 30; index += 1) {
      expect((await guess(app, `guess${index % 3}.${tag}@example.com`, '198.19.0.1')).statusCode).not.toBe(429);
    }
    expect((await guess(app, `guess-new.${tag}@example.com`, '198.19.0.1')).statusCode).toBe(429);
    expect((await guess(app, `guess-new.${tag}@example.com`, '198.19.0.2')).statusCode).not.toBe(429);
  });

  it('access recovery counts as asking for a code', async () => {
    const app = await build({ TRUST_PROXY: 'true' });
    const target = `recovery.${tag}@example.com`;
    const recover = (ip: string) =>
      app.inject({
        method: 'POST',
        url: '/api/account/access-recovery',
        headers: { ...json, 'x-forwarded-for': ip },
        payload: { email: target },
      });
    for (let index = 0; index < 5; index += 1) expect((await recover(`198.20.0.${index}`)).statusCode).toBe(200);
    expect((await recover('198.20.0.99')).statusCode).toBe(429);
  });

  it('a NUL in a sign-in email is a 400 that writes neither the email nor a database error to the log', async () => {
    const app = await build({ TRUST_PROXY: 'true' });
    logs.length = 0;
    const body = `{"email":"nul.victim\\u0000@example.com","otp":"123456"}`;
    const answer = await app.inject({ method: 'POST', url: '/api/auth/sign-in/email-otp', headers: json, payload: body });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    const sent = await app.inject({
      method: 'POST',
      url: '/api/auth/email-otp/send-verification-otp',
      headers: json,
      payload: `{"email":"nul.victim\\u0000@example.com","type":"sign-in"}`,
    });
    expect(sent.statusCode).toBe(400);
    const written = logs.join('');
    expect(written).not.toContain('nul.victim');
    expect(written).not.toMatch(/invalid byte sequence|error: /i);
  });
});
