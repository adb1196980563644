import { Writable } from 'node:stream';
import type { MailboxMessage } from '@roots/contracts/emails';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, serverLoggerOptions, type RootsApp } from '../../app';
import { loadConfig } from '../../config/env';
import type { Database } from '../../db/database';
import { ManualClock, type Clock } from '../../lib/clock';
import { makeWebDist, openTestDatabase, testDatabases } from '../../test/helpers';
import { seedSubscription } from '../../test/account-fixtures';

/**
 * Issue 22 and issue 32 (ADR 167): sign-in limits that see the client (the server's TRUST_PROXY rule,
 * not a bucket shared by everyone); strangers cannot lock an email's owner out, one address serves
 * many customers, code emails to one address are shaped, guesses are bounded per code, per address
 * and per email per minute; a NUL in a sign-in body is a 400 that logs nothing. Default limits, in
 * production mode as well.
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
/** The sign-in code emails the dev mailbox holds for `email`, oldest first. */
async function codesSentTo(app: RootsApp, email: string): Promise<MailboxMessage[]> {
  await app.roots.emails.idle();
  const { messages } = (await app.inject({ method: 'GET', url: '/dev/mailbox.json' })).json<{ messages: MailboxMessage[] }>();
  return messages
    .filter((message) => message.kind === 'sign_in_code' && message.to === email)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}
function codeOf(mail: MailboxMessage): string {
  const code = /code is (\d{6})\./.exec(mail.text)?.[1];
  if (!code) throw new Error(`no code in ${mail.subject}`);
  return code;
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
  const build = async (env: Record<string, string>, clock?: Clock) => {
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
      ...(clock ? { clock } : {}),
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

  it('production: a carrier or office address serves 100 customers an hour; a spoofed address gets no fresh bucket', async () => {
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
    // The proxy (127.0.0.1, trusted) names the client: 100 customers behind one address get their codes,
    // and asking again for the same email does not count twice...
    for (let index = 0; index < 100; index += 1) {
      expect((await askCode(app, `many${index}.prod.${tag}@example.com`, '203.0.113.7')).statusCode).toBe(200);
    }
    expect((await askCode(app, `many0.prod.${tag}@example.com`, '203.0.113.7')).statusCode).toBe(200);
    // ...the 101st email from that address in the hour is refused, with the server's error shape,
    const refused = await askCode(app, `hundred-first.prod.${tag}@example.com`, '203.0.113.7');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
    // while another client still gets its code.
    expect((await askCode(app, `other.prod.${tag}@example.com`, '198.51.100.4')).statusCode).toBe(200);
  });

  it('without a trusted proxy, X-Forwarded-For is ignored: a spoofed header gets no fresh bucket', async () => {
    const app = await build({ TRUST_PROXY: 'false', SIGN_IN_CODES_PER_IP_PER_HOUR: '10' });
    for (let index = 0; index < 10; index += 1) {
      expect((await askCode(app, `spoof${index}.${tag}@example.com`, `192.0.2.${index}`)).statusCode).toBe(200);
    }
    expect((await askCode(app, `spoof-last.${tag}@example.com`, '192.0.2.200')).statusCode).toBe(429);
  });

  it('strangers asking for codes from many addresses never lock the owner out; the owner signs in with the code they were sent', async () => {
    const app = await build({ TRUST_PROXY: 'true' });
    const owner = `owned.${tag}@example.com`;
    for (let index = 0; index < 12; index += 1) {
      expect((await askCode(app, index % 2 ? owner : owner.toUpperCase(), `198.18.0.${index}`)).statusCode).toBe(200);
    }
    // The owner's own request is answered as any other (it was 429 "retry in 58 minutes" after five).
    expect((await askCode(app, owner, '198.18.1.1')).statusCode).toBe(200);
    // Thirteen requests within a minute sent one email: the same code, valid, in the owner's inbox.
    const mails = await codesSentTo(app, owner);
    expect(mails).toHaveLength(1);
    const signedIn = await app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email-otp',
      headers: { ...json, 'x-forwarded-for': '198.18.1.1' },
      payload: { email: owner, otp: codeOf(mails[0]!) },
    });
    expect(signedIn.statusCode).toBe(200);
    expect(String(signedIn.headers['set-cookie'])).toContain('session_token');
  });

  it('email bombing stays bounded: the same code is re-sent at most once a minute and 10 times a day, a new code always goes out', async () => {
    const clock = new ManualClock(new Date());
    const app = await build({ TRUST_PROXY: 'true' }, clock);
    const target = `bombed.${tag}@example.com`;
    // Thirty requests a minute and a bit apart, from thirty addresses: the first email and ten re-sends.
    for (let index = 0; index < 30; index += 1) {
      expect((await askCode(app, target, `198.20.0.${index}`)).statusCode).toBe(200);
      clock.advance(61_000);
    }
    const mails = await codesSentTo(app, target);
    expect(mails).toHaveLength(11);
    expect(new Set(mails.map(codeOf)).size).toBe(1);
    // The owner is still not refused, and the code they hold signs them in; the next sign-in gets a new code at once.
    expect((await askCode(app, target, '198.20.1.1')).statusCode).toBe(200);
    const signIn = (otp: string) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email-otp',
        headers: { ...json, 'x-forwarded-for': '198.20.1.1' },
        payload: { email: target, otp },
      });
    expect((await signIn(codeOf(mails[0]!))).statusCode).toBe(200);
    expect((await askCode(app, target, '198.20.1.1')).statusCode).toBe(200);
    const after = await codesSentTo(app, target);
    expect(after).toHaveLength(12);
    expect(codeOf(after.at(-1)!)).not.toBe(codeOf(mails[0]!));
    expect((await signIn(codeOf(after.at(-1)!))).statusCode).toBe(200);
  });

  it('ten and more customers behind one address all get their codes and sign in', async () => {
    const app = await build({ TRUST_PROXY: 'true' });
    for (let index = 0; index < 15; index += 1) {
      const email = `office${index}.${tag}@example.com`;
      expect((await askCode(app, email, '203.0.113.50')).statusCode, email).toBe(200);
      const [mail] = await codesSentTo(app, email);
      const signedIn = await app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email-otp',
        headers: { ...json, 'x-forwarded-for': '203.0.113.50' },
        payload: { email, otp: codeOf(mail!) },
      });
      expect(signedIn.statusCode, email).toBe(200);
    }
  });

  it('one client tries at most 300 codes an hour across emails; one email takes at most 5 tries a minute, whoever tries', async () => {
    const clock = new ManualClock(new Date());
    const app = await build({ TRUST_PROXY: 'true' }, clock);
    for (let index = 0; index < 300; index += 1) {
      expect((await guess(app, `guess${index}.${tag}@example.com`, '198.19.0.1')).statusCode).not.toBe(429);
    }
    expect((await guess(app, `guess-new.${tag}@example.com`, '198.19.0.1')).statusCode).toBe(429);
    expect((await guess(app, `guess-new.${tag}@example.com`, '198.19.0.2')).statusCode).not.toBe(429);
    // Five tries of one email from five addresses; the sixth waits for the next minute, not the next hour.
    const target = `guessed.${tag}@example.com`;
    for (let index = 0; index < 5; index += 1) expect((await guess(app, target, `198.19.1.${index}`)).statusCode).not.toBe(429);
    const slowed = await guess(app, target, '198.19.1.99');
    expect(slowed.statusCode).toBe(429);
    expect(slowed.json<{ error: string }>().error).toMatch(/1 minute\b/);
    clock.advance(60_000);
    expect((await guess(app, target, '198.19.1.99')).statusCode).not.toBe(429);
  });

  it('access recovery goes through the same shaping: never refused for the email, one email within the minute', async () => {
    const app = await build({ TRUST_PROXY: 'true' });
    const target = `recovery.${tag}@example.com`;
    await seedSubscription(database, target);
    const recover = (ip: string) =>
      app.inject({
        method: 'POST',
        url: '/api/account/access-recovery',
        headers: { ...json, 'x-forwarded-for': ip },
        payload: { email: target },
      });
    for (let index = 0; index < 8; index += 1) {
      expect((await recover(`198.21.0.${index}`)).statusCode).toBe(200);
      await app.roots.account.idle();
    }
    expect(await codesSentTo(app, target)).toHaveLength(1);
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
