import cookie from '@fastify/cookie';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RootsApp } from '../../app';
import type { Database } from '../../db/database';
import { buildTestApp, openTestDatabase } from '../../test/helpers';
import type { SessionReader } from '../auth/session';
import { PurchaseProof } from '../identity/purchase-proof';

const ORIGIN = 'http://127.0.0.1:3000';

/** The `Set-Cookie` headers of an answer, as a list. */
function setCookies(header: string | string[] | number | undefined): string[] {
  if (header === undefined) return [];
  return Array.isArray(header) ? header : [String(header)];
}

/** The cookie's attributes by lower-case name (`path`, `max-age`, …), after its name=value. */
function attributes(setCookie: string): Map<string, string> {
  const [, ...parts] = setCookie.split(';').map((part) => part.trim());
  return new Map(
    parts.map((part) => {
      const [name, ...value] = part.split('=');
      return [name!.toLowerCase(), value.join('=')];
    }),
  );
}

/** product-spec §9: cookies use path / by default. */
describe('every cookie the product sets has Path=/', () => {
  let database: Database;
  let app: RootsApp;

  beforeAll(async () => {
    database = await openTestDatabase(undefined);
    app = await buildTestApp({ database });
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('the session cookies of a sign-in (better-auth), and their clearing when the account is deleted', async () => {
    const email = 'cookie.path@example.com';
    const readMailbox = async () =>
      (await app.inject({ method: 'GET', url: '/dev/mailbox.json' })).json<{
        messages: Array<{ subject: string; text: string; to: string }>;
      }>().messages;
    const sent = await app.inject({
      method: 'POST',
      url: '/api/auth/email-otp/send-verification-otp',
      headers: { origin: ORIGIN, 'content-type': 'application/json' },
      payload: { email, type: 'sign-in' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    await app.roots.emails.idle();
    const code = /\b(\d{6})\b/.exec((await readMailbox()).find((message) => message.to === email)?.text ?? '')?.[1];
    const signedIn = await app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email-otp',
      headers: { origin: ORIGIN, 'content-type': 'application/json' },
      payload: { email, otp: code },
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const session = setCookies(signedIn.headers['set-cookie']);
    expect(session.some((c) => c.startsWith('better-auth.session_token='))).toBe(true);
    for (const setCookie of session) expect(attributes(setCookie).get('path'), setCookie).toBe('/');

    const cookieHeader = session.map((c) => c.split(';')[0]).join('; ');
    const deleted = await app.inject({ method: 'DELETE', url: '/api/account', headers: { cookie: cookieHeader, origin: ORIGIN } });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const cleared = setCookies(deleted.headers['set-cookie']);
    expect(cleared.some((c) => c.startsWith('better-auth.session_token=;'))).toBe(true);
    for (const setCookie of cleared) {
      expect(attributes(setCookie).get('path'), setCookie).toBe('/');
      expect(attributes(setCookie).get('max-age'), setCookie).toBe('0');
    }
  });

  it('the {slug}_purchases proof a purchase answer leaves in the buyer’s browser', async () => {
    // The real PurchaseProof on a bare server: a purchase needs the gateway (subscriptions.http.test.ts).
    const proof = new PurchaseProof({ secret: 'x'.repeat(32), slug: 'kin', secure: true }, {} as SessionReader);
    const server = Fastify();
    await server.register(cookie);
    server.post('/buy', async (request, reply) => {
      proof.grant(request, reply, 'c1d2e3f4-0000-4000-8000-000000000001');
      return { id: 'c1d2e3f4-0000-4000-8000-000000000001' };
    });
    const answer = await server.inject({ method: 'POST', url: '/buy' });
    await server.close();
    const [purchases, ...others] = setCookies(answer.headers['set-cookie']);
    expect(others).toEqual([]);
    expect(purchases).toMatch(/^kin_purchases=/);
    expect(attributes(purchases!).get('path')).toBe('/');
    expect(attributes(purchases!).has('httponly')).toBe(true);
  });
});
