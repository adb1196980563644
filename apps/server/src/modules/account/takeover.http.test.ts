import type { MailboxMessage } from '@roots/contracts/emails';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RootsApp } from '../../app';
import type { Database } from '../../db/database';
import { emails, subscriptions } from '../../db/schema';
import { systemClock } from '../../lib/clock';
import { startGatewayProcess, type GatewayProcess } from '../../test/gateway-process';
import { testDatabases } from '../../test/helpers';
import { startProductOverHttp, type ProductOverHttp } from '../../test/product-over-http';
import { CookieJar, http, payWithCard, purchaseBody } from '../../test/shopper';
import { signInAsOperator } from '../../test/operator';
import { signInWithEmailCode } from '../../test/sign-in';
import { seedReport } from '../../test/account-fixtures';

/**
 * Issue 22's account takeover, replayed by an attacker who holds only the victim's email (a customer
 * with a report, and an operator): a $1 trial naming the victim, a sign-in code asked for them, then
 * every place the attacker can read. None may hold the code, an email to the victim, or their report.
 */

const WEEKLY = 'roots_3d1_7d2499';

let gateway: GatewayProcess;
beforeAll(async () => {
  gateway = await startGatewayProcess();
});
afterAll(async () => {
  await gateway?.stop();
});

describe.each(testDatabases())('an attacker holding only an email, on $name', ({ url }) => {
  let product: ProductOverHttp;
  let app: RootsApp;
  let database: Database;
  let base: string;
  const tag = url ? 'pg' : 'pglite';
  const victim = `victim.${tag}@example.com`;
  const operator = `operator.${tag}@example.com`;
  const attacker = `attacker.${tag}@example.com`;
  let operatorCookie = '';
  let attackerCookie = '';
  let victimReport = '';

  const mailbox = async () =>
    (await app.inject({ method: 'GET', url: '/dev/mailbox.json' })).json<{ messages: MailboxMessage[] }>().messages;
  /** Asks a sign-in code for `email` as anyone can, and answers the code the owner of the address received. */
  const askCodeFor = async (email: string) => {
    const seen = new Set((await mailbox()).map((message) => message.id));
    const asked = await http(`${base}/api/auth/email-otp/send-verification-otp`, { json: { email, type: 'sign-in' } });
    expect(asked.status).toBe(200);
    await app.roots.emails.idle();
    const received = (await mailbox()).find((message) => message.to === email && message.kind === 'sign_in_code' && !seen.has(message.id));
    const code = /code is (\d{6})\./.exec(received?.text ?? '')?.[1];
    expect(code, 'the owner of the address receives the code').toMatch(/^\d{6}$/);
    return { code: code!, emailId: received!.id };
  };
  const buyAnonymously = async (email: string) => {
    const paid = await payWithCard(base, WEEKLY);
    const jar = new CookieJar();
    const created = await http<{ id: string }>(`${base}/subs/create-no-user`, { json: purchaseBody(paid, email), jar });
    expect(created.status, created.text).toBe(200);
    return { id: created.body.id, jar };
  };

  beforeAll(async () => {
    product = await startProductOverHttp({ databaseUrl: url, gatewayUrl: gateway.url, clock: systemClock });
    ({ app, database, base } = product);
    // The console's state changes name the origin the app was built for (ADR 111), as its pages do.
    const builtFor = new URL(product.config.publicUrl).origin;
    product.config.publicUrl = base;
    operatorCookie = (await signInAsOperator(app, operator, 'support', builtFor)).cookie;
    // The victim bought, signed in and has a report linked to their account.
    const bought = await buyAnonymously(victim);
    const victimCookie = await signInWithEmailCode(app, victim, base);
    const victimUid = (await http<{ user: { uid: string } }>(`${base}/api/account/me`, { headers: { cookie: victimCookie } })).body.user
      .uid;
    victimReport = await seedReport(database, { subscriptionId: bought.id, email: victim, userId: victimUid });
    attackerCookie = await signInWithEmailCode(app, attacker, base);
  });
  afterAll(async () => {
    await product?.close();
  });

  it('a signed-in purchase naming the victim is made under the attacker’s own email', async () => {
    const paid = await payWithCard(base, WEEKLY);
    const me = (await http<{ user: { uid: string } }>(`${base}/api/account/me`, { headers: { cookie: attackerCookie } })).body.user;
    const created = await http<{ id: string }>(`${base}/subs/create`, {
      json: { ...purchaseBody(paid, victim), firebase_id: me.uid, card: { execution_id: paid.execution.id } },
      headers: { cookie: attackerCookie },
    });
    expect(created.status, created.text).toBe(200);
    const [row] = await database.db.select().from(subscriptions).where(eq(subscriptions.id, created.body.id));
    expect(row).toMatchObject({ email: attacker, userId: me.uid });
  });

  for (const target of ['customer', 'operator'] as const) {
    it(`reads no sign-in code of the ${target} anywhere the attacker can look, and cannot sign in as them`, async () => {
      const email = target === 'customer' ? victim : operator;
      // The anonymous purchase naming the victim, finalized into the attacker's account (issue 22's second path).
      const bought = await buyAnonymously(email);
      const me = (await http<{ user: { uid: string } }>(`${base}/api/account/me`, { headers: { cookie: attackerCookie } })).body.user;
      const finalized = await http(`${base}/subs/finalize`, {
        json: { subscription_id: bought.id, email, firebase_id: me.uid },
        headers: { cookie: `${attackerCookie}; ${bought.jar.header()}` },
      });
      expect(finalized.status, finalized.text).toBe(200);

      const { code, emailId } = await askCodeFor(email);

      // The attacker's data download: no email to the victim's address, no code anywhere.
      const exported = await http<{ emails: Array<{ id: string }> }>(`${base}/api/account/export`, { headers: { cookie: attackerCookie } });
      expect(exported.status).toBe(200);
      expect(exported.body.emails.length).toBeGreaterThan(0); // the attacker's own sign-in and receipt
      expect(exported.body.emails.map((message) => message.id)).not.toContain(emailId);
      expect(exported.text).not.toContain(code);

      // What the outbox keeps: the kind and a redacted text; the sendable copy is gone once delivered.
      const [stored] = await database.db.select().from(emails).where(eq(emails.id, emailId));
      expect(stored).toMatchObject({ kind: 'sign_in_code', status: 'stored', sealed: null });
      expect(JSON.stringify(stored)).not.toContain(code);
      expect(stored!.subject).not.toMatch(/\d{6}/);
      expect(stored!.text).toContain('[redacted]');

      // The operator console's customer lookup shows the email was sent, never its code.
      const lookup = await http(`${base}/api/admin/customers?q=${encodeURIComponent(email)}`, { headers: { cookie: operatorCookie } });
      expect(lookup.status).toBe(200);
      expect(lookup.text).not.toContain(code);

      // Guessing is all that is left: a wrong code does not sign in (the real one was never shown).
      const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
      const guess = await http(`${base}/api/auth/sign-in/email-otp`, { json: { email, otp: wrong } });
      expect(guess.status).not.toBe(200);
      expect(guess.headers.get('set-cookie') ?? '').not.toContain('session_token=');
    });
  }

  it('a purchase naming the victim opens no report of the victim’s, in the funnel or the PDF', async () => {
    const bought = await buyAnonymously(victim);
    const asPurchase = { subscription_id: bought.id, email: victim };
    const list = await http<{ reports: Array<{ report_id: string }> }>(`${base}/report/list-reports`, {
      json: asPurchase,
      jar: bought.jar,
    });
    expect(list.status, list.text).toBe(200);
    expect(list.body.reports).toEqual([]);
    const get = await http(`${base}/report/get-report`, { json: { ...asPurchase, report_id: victimReport }, jar: bought.jar });
    expect(get.status).toBe(404);
    expect(get.text).not.toContain(victimReport);
    const pdf = await http(`${base}/pdf-report/content`, { json: { ...asPurchase, report_id: victimReport }, jar: bought.jar });
    expect(pdf.status).toBe(404);
    // Signed in as themselves (a purchase naming the victim finalized into their account): nothing either.
    const me = (await http<{ user: { uid: string } }>(`${base}/api/account/me`, { headers: { cookie: attackerCookie } })).body.user;
    await http(`${base}/subs/finalize`, {
      json: { subscription_id: bought.id, email: victim, firebase_id: me.uid },
      headers: { cookie: `${attackerCookie}; ${bought.jar.header()}` },
    });
    const signedIn = await http<{ reports: Array<{ report_id: string }> }>(`${base}/report/list-reports`, {
      json: {},
      headers: { cookie: attackerCookie },
    });
    expect(signedIn.body.reports.map((report) => report.report_id)).not.toContain(victimReport);
    const signedInGet = await http(`${base}/report/get-report`, { json: { report_id: victimReport }, headers: { cookie: attackerCookie } });
    expect(signedInGet.status).toBe(404);
  });
});
