import { MESSAGES } from '@roots/contracts';
import type { MeResponse } from '@roots/contracts/auth';
import type { Execution } from '@roots/contracts/gateway';
import type { InitSessionResponse, SubscriptionSummary } from '@roots/contracts/subscriptions';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type RootsApp } from '../../app';
import { DEV_SERVER_SECRETS, loadConfig } from '../../config/env';
import type { Database } from '../../db/database';
import { charges, funnelEvents, purchaseIntents, subscriptions } from '../../db/schema';
import { DAY_MS, HOUR_MS, ManualClock } from '../../lib/clock';
import { startGatewayProcess, type GatewayProcess } from '../../test/gateway-process';
import type { GatewayProxy } from '../../test/gateway-proxy';
import { makeWebDist, openTestDatabase, testDatabases } from '../../test/helpers';
import { startProductOverHttp, type ProductOverHttp } from '../../test/product-over-http';
import { CookieJar, http, listInstruments, payWithCard, purchaseBody, storeCard } from '../../test/shopper';
import { signInWithEmailCode } from '../../test/sign-in';
import { startSmtp } from '../../test/smtp';

const WEEKLY = 'roots_3d1_7d2499';
const THREE_MONTH = 'roots_3m4800_3m4999';
const ULTIMATE = 'roots_ultimate_pack_4999_otp';
const REPORT = 'roots_report_2899_otp';

let gateway: GatewayProcess;
let smtp: Awaited<ReturnType<typeof startSmtp>>;

beforeAll(async () => {
  [gateway, smtp] = await Promise.all([startGatewayProcess(), startSmtp()]);
});
afterAll(async () => {
  await Promise.all([gateway?.stop(), smtp?.stop()]);
});

async function gatewayExecution(id: string): Promise<Execution> {
  const answer = await http<Execution>(`${gateway.url}/merchant/v1/executions/${id}`, {
    headers: { 'x-api-key': DEV_SERVER_SECRETS.GATEWAY_MERCHANT_SECRET },
  });
  return answer.body;
}

describe.each(testDatabases())('subscriptions over HTTP against the gateway on $name', ({ url }) => {
  let database: Database;
  let app: RootsApp;
  let base: string;
  let proxy: GatewayProxy;
  const clock = new ManualClock('2026-01-05T12:00:00.000Z');
  const email = (name: string) => `${name}.${url ? 'pg' : 'pglite'}@example.com`;

  let product: ProductOverHttp | undefined;

  beforeAll(async () => {
    product = await startProductOverHttp({ databaseUrl: url, gatewayUrl: gateway.url, clock, env: { SMTP_URL: smtp.url } });
    ({ database, app, base, proxy } = product);
    product.config.publicUrl = base;
  });
  afterAll(async () => {
    await product?.close();
  });

  const subscription = async (id: string) => (await database.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;
  /** The purchase as its buyer's browser (the jar holds the purchase's proof, ADR 085) sees it. */
  const summary = async (id: string, jar: CookieJar) =>
    (await http<{ subscriptions: SubscriptionSummary[] }>(`${base}/rec/subscriptions/${id}`, { method: 'POST', jar })).body
      .subscriptions[0]!;
  const buy = async (planId: string, buyer: string) => {
    const paid = await payWithCard(base, planId);
    expect(paid.execution.status).toBe('authorizeSuccessful');
    const jar = new CookieJar();
    const created = await http<{ id: string }>(`${base}/subs/create-no-user`, {
      json: purchaseBody(paid, buyer),
      headers: { 'user-agent': 'vitest-buyer/1.0' },
      jar,
    });
    expect(created.status, created.text).toBe(200);
    expect(jar.header()).toMatch(/^roots_purchases=/);
    return { paid, id: created.body.id, jar };
  };

  it('sells a trial, reminds, converts it, renews twice, recovers a soft decline', async () => {
    const buyer = email('trial');
    const { paid, id, jar } = await buy(WEEKLY, buyer);
    expect(paid.init).toMatchObject({ plan_id: WEEKLY, plan_amount: 1, amount: { value: 100, currency: 'USD' } });
    expect(paid.init.bearerToken).toEqual(expect.any(String));

    // A replay and a double submit answer the same subscription.
    const again = await http<{ id: string }>(`${base}/subs/create-no-user`, { json: purchaseBody(paid, buyer.toUpperCase()) });
    expect(again.body).toEqual({ id });

    const row = await subscription(id);
    expect(row).toMatchObject({
      status: 'trialing',
      planId: WEEKLY,
      cardLast4: '4242',
      termsText: paid.init.disclosure.terms_text,
      termsVersion: paid.init.disclosure.terms_version,
      consentUserAgent: 'vitest-buyer/1.0',
    });
    expect(row.consentIp).toBe('127.0.0.1');
    expect(row.attribution).toEqual({ project: 'roots', campaign_id: 'c1', fbp: 'fb.1.2' });
    expect(row.currentPeriodEnd?.toISOString()).toBe('2026-01-08T12:00:00.000Z');

    // By id from the buyer's browser the purchase shows; from another browser the id proves nothing.
    expect((await summary(id, jar)).card_last4).toBe('4242');
    const stranger = await http(`${base}/rec/subscriptions/${id}`, { method: 'POST', jar: new CookieJar() });
    expect(stranger).toMatchObject({ status: 404, body: { error: MESSAGES.noSubscriptionData } });
    expect(stranger.text).not.toContain('4242');
    // By email, which anyone can type: no id, state or card in the answer; the purchases go to the address.
    const byEmail = await http(`${base}/rec/subscriptions/${buyer}`, { method: 'POST' });
    expect(byEmail).toMatchObject({ status: 200, body: { message: MESSAGES.checkYourEmail } });
    expect(byEmail.text).not.toContain(id);
    const purchasesMail = await smtp.waitFor((mail) => mail.to.includes(buyer) && mail.subject.includes('purchases'));
    expect(purchasesMail.text).toMatch(/Trial, access until January 8, 2026\. To cancel it: http:\/\/\S+\/api\/cancel-subscription\//);

    const receipt = await smtp.waitFor((mail) => mail.to.includes(buyer) && mail.subject.includes('receipt'));
    expect(receipt.text).toContain('Amount charged: $1.00 (card ending in 4242)');
    expect(receipt.text).toContain('Next charge: $24.99 on January 8, 2026');
    expect(receipt.text).toContain(paid.init.disclosure.terms_text.slice(0, 60));
    // A receipt a merchant can send (issue 23): its number (the first charge's), who sends it, where replies go.
    const [firstCharge] = await database.db.select().from(charges).where(eq(charges.subscriptionId, id));
    expect(receipt.text).toContain(`Receipt R-${firstCharge!.id.replace(/-/g, '').slice(0, 12).toUpperCase()}`);
    expect(receipt.text).toContain(`Questions? Reply to this email or write to ${product!.config.LEGAL_CONTACT_EMAIL}.`);
    expect(receipt.raw).toMatch(new RegExp(`^Reply-To: ${product!.config.LEGAL_CONTACT_EMAIL}`, 'm'));
    const cancelLink = /(http:\/\/\S+\/api\/cancel-subscription\/[\w.-]+)/.exec(receipt.text)?.[1];
    expect(cancelLink).toBeDefined();

    const events = await database.db.select().from(funnelEvents).where(eq(funnelEvents.subscriptionId, id));
    expect(events.map((event) => [event.name, event.value]).sort()).toEqual([
      ['AllPurchase', 0.75],
      ['Purchase', 0.75],
    ]);

    // Reminder a day before conversion, once.
    clock.advance(2 * DAY_MS + HOUR_MS);
    expect((await app.roots.billing.tick()).reminders).toBeGreaterThanOrEqual(1);
    await app.roots.billing.tick();
    await smtp.waitFor((mail) => mail.to.includes(buyer) && mail.subject.includes('trial ends on January 8, 2026'));
    expect(smtp.mails.filter((mail) => mail.to.includes(buyer) && mail.subject.includes('trial ends')).length).toBe(1);

    // Conversion, then two renewals.
    for (const [advance, period, end] of [
      [DAY_MS, 1, '2026-01-15T12:00:00.000Z'],
      [7 * DAY_MS, 2, '2026-01-22T12:00:00.000Z'],
      [7 * DAY_MS, 3, '2026-01-29T12:00:00.000Z'],
    ] as const) {
      clock.advance(advance);
      await app.roots.billing.tick();
      const renewed = await subscription(id);
      expect(renewed).toMatchObject({ status: 'active', currentPeriod: period });
      expect(renewed.currentPeriodEnd?.toISOString()).toBe(end);
    }
    const ownCharges = proxy.charges.filter((record) => record.idempotencyKey.startsWith(`sub:${id}:`));
    expect(ownCharges.map((record) => record.idempotencyKey)).toEqual([`sub:${id}:period:1`, `sub:${id}:period:2`, `sub:${id}:period:3`]);
    expect(ownCharges.every((record) => record.status === 'authorizeSuccessful' && record.amount === 2499)).toBe(true);
    await smtp.waitFor(
      (mail) =>
        mail.to.includes(buyer) && mail.subject.includes('renewed') && mail.text.includes('Next charge: $24.99 on January 29, 2026'),
    );

    // Soft decline: past_due, retried 24 h later with its own key, recovered.
    proxy.declineNextCharges(1);
    clock.advance(7 * DAY_MS);
    expect((await app.roots.billing.tick()).processed).toMatchObject({ soft_declined: 1 });
    expect(await subscription(id)).toMatchObject({ status: 'past_due', currentPeriod: 3, retryCount: 1 });
    expect((await summary(id, jar)).access).toEqual(['subscription']);
    // The customer is told at once: what failed, why, the next try, and the one-click way out (issue 23).
    const failedMail = await smtp.waitFor((mail) => mail.to.includes(buyer) && mail.subject.includes('could not renew'));
    expect(failedMail.text).toContain('We tried to charge $24.99 to the card ending in 4242');
    expect(failedMail.text).toContain('the bank said there were not enough funds');
    expect(failedMail.text).toContain('We will try again on January 30, 2026. Your access goes on until then.');
    expect(failedMail.text).toMatch(/Cancel in one click and nothing more will be charged: http:\/\/\S+\/api\/cancel-subscription\//);
    clock.advance(23 * HOUR_MS);
    await app.roots.billing.tick();
    expect((await subscription(id)).status).toBe('past_due');
    clock.advance(HOUR_MS);
    expect((await app.roots.billing.tick()).processed).toMatchObject({ renewed: 1 });
    expect(await subscription(id)).toMatchObject({ status: 'active', currentPeriod: 4, retryCount: 0 });
    const attempts = await database.db.select().from(charges).where(eq(charges.subscriptionId, id));
    expect(attempts.filter((charge) => charge.period === 4).map((charge) => [charge.attempt, charge.status, charge.declineCode])).toEqual(
      expect.arrayContaining([
        [0, 'failed', 'insufficient_funds'],
        [1, 'succeeded', null],
      ]),
    );
    expect(attempts.filter((charge) => charge.status === 'succeeded')).toHaveLength(5); // trial + 4 periods
  });

  it('expires a subscription whose last dunning retry is declined', async () => {
    const { id, jar } = await buy(WEEKLY, email('dunning'));
    // Each delivery finishes before the test clock jumps (a jump past an email's claim would send it again).
    await app.roots.emails.idle();
    proxy.declineNextCharges(4, `sub:${id}:`);
    clock.advance(3 * DAY_MS);
    for (const [hours, status] of [
      [0, 'past_due'],
      [24, 'past_due'],
      [72, 'past_due'],
      [120, 'expired'],
    ] as const) {
      clock.advance(hours * HOUR_MS);
      await app.roots.billing.tick();
      await app.roots.emails.idle();
      expect((await subscription(id)).status).toBe(status);
    }
    const attempts = await database.db.select().from(charges).where(eq(charges.subscriptionId, id));
    expect(attempts.filter((charge) => charge.period === 1).map((charge) => charge.idempotencyKey)).toEqual(
      expect.arrayContaining([
        `sub:${id}:period:1`,
        `sub:${id}:period:1:retry:1`,
        `sub:${id}:period:1:retry:2`,
        `sub:${id}:period:1:retry:3`,
      ]),
    );
    expect((await summary(id, jar)).access).toEqual([]);
    // Three "could not renew" emails (one per soft decline), then one saying it ended (involuntary churn).
    const dunningMails = () => smtp.mails.filter((mail) => mail.to.includes(email('dunning')));
    await smtp.waitFor((mail) => mail.to.includes(email('dunning')) && mail.subject.includes('has ended'));
    expect(dunningMails().filter((mail) => mail.subject.includes('could not renew'))).toHaveLength(3);
    expect(dunningMails().find((mail) => mail.subject.includes('has ended'))?.text).toContain('nothing more will be charged');
    clock.advance(30 * DAY_MS);
    await app.roots.billing.tick();
    expect(proxy.charges.filter((record) => record.idempotencyKey.startsWith(`sub:${id}:`))).toHaveLength(4);
  });

  it('sells a one-click add-on on the stored card, once however often it is clicked', async () => {
    const buyer = email('addon');
    const { id: parentId, jar } = await buy(THREE_MONTH, buyer);
    const body = { plan_id: ULTIMATE, email: buyer, subscription_id: parentId, attribution: { project: 'roots' } };
    // Knowing the buyer's email and the parent id, from another browser, charges nothing.
    const stranger = await http(`${base}/subs/create-no-user`, { json: body, jar: new CookieJar() });
    expect(stranger).toMatchObject({ status: 404, body: { error: MESSAGES.noSubscriptionData, code: 'NOT_FOUND' } });
    expect(proxy.distinctCharges((record) => record.idempotencyKey.startsWith(`addon:${parentId}:`)).size).toBe(0);
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => http<{ id: string }>(`${base}/subs/create-no-user`, { json: body, jar })));
    const ok = answers.filter((answer) => answer.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const answer of answers) expect([200, 503]).toContain(answer.status);
    const addOnId = ok[0]!.body.id;
    expect(new Set(ok.map((answer) => answer.body.id))).toEqual(new Set([addOnId]));
    expect((await http<{ id: string }>(`${base}/subs/create-no-user`, { json: body, jar })).body).toEqual({ id: addOnId });
    expect(proxy.distinctCharges((record) => record.idempotencyKey.startsWith(`addon:${parentId}:`)).size).toBe(1);
    expect(await summary(addOnId, jar)).toMatchObject({
      status: 'active',
      plan_id: ULTIMATE,
      access: ['ultimate_pack'],
      next_charge_at: null,
    });
    const events = await database.db.select().from(funnelEvents).where(eq(funnelEvents.subscriptionId, addOnId));
    expect(events.map((event) => [event.name, event.value]).sort()).toEqual([
      ['AllPurchase', 37.49],
      ['One-timePurchase', 37.49],
    ]);
    // No subscription data: unknown parent, or another buyer's.
    for (const wrong of [
      { ...body, subscription_id: '00000000-0000-4000-8000-000000000000' },
      { ...body, email: email('stranger') },
    ]) {
      const answer = await http(`${base}/subs/create-no-user`, { json: wrong, jar });
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ error: MESSAGES.noSubscriptionData, code: 'NOT_FOUND' });
    }
  });

  it('finalizes for a signed-in user and refuses what it cannot verify', async () => {
    const buyer = email('final');
    const { id } = await buy(WEEKLY, buyer);
    const cookie = await signInWithEmailCode(app, buyer, undefined, smtp);
    const someoneElse = await signInWithEmailCode(app, email('someone.else'), undefined, smtp);
    const userId = (await app.inject({ method: 'GET', url: '/api/account/me', headers: { cookie } })).json<MeResponse>().user.uid;
    const finalize = (body: Record<string, unknown>, as: string | null = cookie) =>
      http(`${base}/subs/finalize`, { json: { subscription_id: id, email: buyer, ...body }, headers: as ? { cookie: as } : {} });
    expect((await finalize({ firebase_id: userId })).body).toEqual({ id });
    expect((await subscription(id)).userId).toBe(userId);
    expect(await finalize({})).toMatchObject({ status: 200 });
    // Another signed-in user cannot take a purchase that is not theirs: it answers as an unknown one.
    expect(await finalize({}, someoneElse)).toMatchObject({
      status: 404,
      body: { error: MESSAGES.finalizeError, code: 'NOT_FOUND' },
    });
    expect(await finalize({ firebase_id: 'someone_else' })).toMatchObject({ status: 401, body: { error: MESSAGES.finalizeError } });
    expect(await finalize({}, null)).toMatchObject({ status: 401, body: { error: MESSAGES.finalizeError, code: 'UNAUTHORIZED' } });
    expect(await finalize({ email: email('other') })).toMatchObject({
      status: 404,
      body: { error: MESSAGES.finalizeError },
    });
    expect(await finalize({ subscription_id: 'nope' })).toMatchObject({
      status: 400,
      body: { error: MESSAGES.finalizeError, code: 'VALIDATION_ERROR' },
    });
    const registration = await database.db.select().from(funnelEvents).where(eq(funnelEvents.subscriptionId, id));
    expect(registration.filter((event) => event.name === 'CompleteRegistration')).toHaveLength(1);

    // An unlinked purchase: a signed-in attacker who knows its id and email cannot finalize it into
    // their account; the buyer's own browser can, whatever email the sign-in returned (private relay).
    const victim = email('final.victim');
    const unlinked = await buy(WEEKLY, victim);
    const attacker = await signInWithEmailCode(app, email('final.attacker'), undefined, smtp);
    const steal = await http(`${base}/subs/finalize`, {
      json: { subscription_id: unlinked.id, email: victim },
      headers: { cookie: attacker },
    });
    expect(steal).toMatchObject({ status: 404, body: { error: MESSAGES.finalizeError } });
    expect((await subscription(unlinked.id)).userId).toBeNull();
    const relay = await signInWithEmailCode(app, email('final.relay'), undefined, smtp);
    const own = await http(`${base}/subs/finalize`, {
      json: { subscription_id: unlinked.id, email: victim },
      headers: { cookie: relay },
      jar: unlinked.jar,
    });
    expect(own).toMatchObject({ status: 200, body: { id: unlinked.id } });
    expect((await subscription(unlinked.id)).userId).not.toBeNull();

    // Activation email for a buyer; the same answer for an unknown address, and no mail.
    expect((await http(`${base}/api/send-activation-by-email/act1234/${encodeURIComponent(buyer)}`, { method: 'POST' })).body).toEqual({
      ok: true,
    });
    const activation = await smtp.waitFor((mail) => mail.to.includes(buyer) && mail.subject.includes('Activate'));
    expect(activation.text).toContain('/roots/activate?code=act1234');
    expect((await http(`${base}/api/send-activation-by-email/act1234/${email('ghost')}`, { method: 'POST' })).body).toEqual({ ok: true });

    // Signed-in purchase links the user at creation. The weekly plan is the account's already (it was
    // finalized into it above): a second payment for it makes no second subscription (issue 23).
    const signedInPurchase = (planPaid: Awaited<ReturnType<typeof payWithCard>>) =>
      http<{ id: string }>(`${base}/subs/create`, {
        json: {
          plan_id: planPaid.init.plan_id,
          email: buyer,
          firebase_id: userId,
          card: { execution_id: planPaid.execution.id },
          consent: planPaid.init.disclosure,
        },
        headers: { cookie },
      });
    expect(await signedInPurchase(await payWithCard(base, WEEKLY))).toMatchObject({ status: 409, body: { code: 'ALREADY_OWNED' } });
    // Nor is another plan sold beside it (ADR 196): the account changes the plan instead.
    expect(await signedInPurchase(await payWithCard(base, THREE_MONTH))).toMatchObject({
      status: 409,
      body: { code: 'ALREADY_OWNED', error: 'You already have the Weekly Plan — this payment was refunded.' },
    });
    const paid = await payWithCard(base, REPORT);
    const created = await signedInPurchase(paid);
    expect(created.status, created.text).toBe(200);
    expect((await subscription(created.body.id)).userId).toBe(userId);
    const noIdentity = await http(`${base}/subs/create`, {
      json: { plan_id: THREE_MONTH, email: buyer, card: { execution_id: paid.execution.id }, consent: paid.init.disclosure },
    });
    expect(noIdentity).toMatchObject({ status: 401, body: { error: MESSAGES.cantCreateSubscription } });
  });

  it('cancels by email code and by the one-click link, and refunds under the guarantee', async () => {
    const buyer = email('cancel');
    const { id } = await buy(WEEKLY, buyer);
    const unknown = await http(`${base}/api/cancel-request`, { json: { email: email('nobody') } });
    expect(unknown).toMatchObject({ status: 404, body: { error: MESSAGES.noSubscriptions, code: 'NOT_FOUND' } });

    expect((await http(`${base}/api/cancel-request`, { json: { email: buyer, host: 'roots.example' } })).body).toEqual({
      message: 'Check your email',
    });
    const codeMail = await smtp.waitFor((mail) => mail.to.includes(buyer) && mail.subject.includes('cancellation code'));
    expect(codeMail.subject).not.toMatch(/\d{6}/);
    const code = /subscription is (\d{6})\./.exec(codeMail.text)?.[1];
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    expect((await http(`${base}/api/cancel-request`, { json: { email: buyer, code: wrong } })).status).toBe(400);
    expect((await http(`${base}/api/cancel-request`, { json: { email: buyer, code } })).body).toEqual({
      message: 'Your subscription has been canceled',
    });
    expect(await subscription(id)).toMatchObject({ status: 'canceled' });
    await smtp.waitFor((mail) => mail.to.includes(buyer) && mail.subject.includes('has been canceled'));
    // Code used once; nothing left to cancel.
    expect((await http(`${base}/api/cancel-request`, { json: { email: buyer, code } })).status).toBe(400);

    // Access lasts to the period end, then expires without a charge.
    clock.advance(4 * DAY_MS);
    await app.roots.billing.tick();
    expect(await subscription(id)).toMatchObject({ status: 'expired' });
    expect(proxy.charges.filter((record) => record.idempotencyKey.startsWith(`sub:${id}:`))).toEqual([]);

    // One-click link from the receipt with the money-back refund.
    const second = await buy(THREE_MONTH, email('refund'));
    const receipt = await smtp.waitFor((mail) => mail.to.includes(email('refund')) && mail.subject.includes('receipt'));
    const link = /(http:\/\/\S+\/api\/cancel-subscription\/[\w.-]+)/.exec(receipt.text)![1]!;
    // Opening the link (a GET, as mail scanners do) changes nothing: it shows the confirmation page.
    const before = await subscription(second.id);
    const click = await fetch(`${link}?refund=true`, { redirect: 'manual' });
    expect(click.status).toBe(303);
    expect(click.headers.get('location')).toBe(`/roots/unsubscription?link=${encodeURIComponent(link.split('/').pop()!)}`);
    expect(click.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await subscription(second.id)).toEqual(before);
    expect((await gatewayExecution(second.paid.execution.id)).amountRefunded).toBe(0);
    // The page's button POSTs the link, the proof; the guarantee decides the refund.
    expect((await http<{ refunded?: number }>(`${link}?refund=true`, { method: 'POST', json: {} })).body).toEqual({
      message: MESSAGES.subscriptionCanceled,
      refunded: 48,
    });
    expect(await subscription(second.id)).toMatchObject({ status: 'expired' });
    expect((await gatewayExecution(second.paid.execution.id)).amountRefunded).toBe(4800);
    // A second click refunds nothing more.
    expect((await http(link, { method: 'POST', json: {} })).status).toBe(200);
    expect((await http<{ refunded?: number }>(`${link}?refund=true`, { method: 'POST', json: {} })).body.refunded).toBe(48);
    expect((await gatewayExecution(second.paid.execution.id)).amountRefunded).toBe(4800);
    await smtp.waitFor((mail) => mail.to.includes(email('refund')) && mail.subject.includes('refund'));
    expect((await summary(second.id, second.jar)).access).toEqual([]);
    expect((await http(`${base}/api/cancel-subscription/forged.token-value`, { method: 'POST', json: {} })).status).toBe(404);
    expect((await fetch(`${base}/api/cancel-subscription/forged.token-value`, { redirect: 'manual' })).headers.get('location')).toBe(
      '/roots/unsubscription',
    );

    // Cancel by id: the id alone (e.g. leaked) changes nothing, whatever the refund flag says.
    const third = await buy(WEEKLY, email('byid'));
    const byStranger = await http(`${base}/api/cancel`, { json: { id: third.id, refund: true }, jar: new CookieJar() });
    expect(byStranger).toMatchObject({ status: 404, body: { error: MESSAGES.noSubscriptions, code: 'NOT_FOUND' } });
    expect(await subscription(third.id)).toMatchObject({ status: 'trialing', canceledAt: null });
    expect((await gatewayExecution(third.paid.execution.id)).amountRefunded).toBe(0);
    // From the buyer's browser it cancels (cancelling is as easy as buying).
    expect((await http(`${base}/api/cancel`, { json: { id: third.id }, jar: third.jar })).body).toEqual({
      message: 'Your subscription has been canceled',
    });
    expect(await subscription(third.id)).toMatchObject({ status: 'canceled' });
  });

  it('lists stored cards only to their signed-in owner, never to a session opened with their email (ADR 085)', async () => {
    const owner = email('cards');
    const cookie = await signInWithEmailCode(app, owner, undefined, smtp);
    const open = async (query: string, headers: Record<string, string> = {}) => {
      const answer = await http<InitSessionResponse>(`${base}/init/session?plan_id=${WEEKLY}${query}`, { headers });
      expect(answer.status, answer.text).toBe(200);
      return answer.body;
    };
    const mine = await open('', { cookie });
    const card = await storeCard(mine, { number: '5555555555554444' });
    expect((await listInstruments(await open('', { cookie }))).map((item) => item.id)).toEqual([card.id]);
    // Someone who knows the email opens a session naming it: a fresh anonymous holder, no cards.
    const probe = await open(`&email=${encodeURIComponent(owner)}`);
    expect(probe.holderReference).not.toBe(mine.holderReference);
    expect(probe.holderReference).toMatch(/^h_anon_/);
    expect(await listInstruments(probe)).toEqual([]);
    const posted = await http<InitSessionResponse>(`${base}/init/session`, { json: { plan_id: WEEKLY, email: owner } });
    expect(await listInstruments(posted.body)).toEqual([]);
  });

  it('answers the spec messages for payments it cannot accept', async () => {
    const buyer = email('errors');
    const create = (body: unknown) => http(`${base}/subs/create-no-user`, { json: body });
    const cant = { error: MESSAGES.cantCreateSubscription };

    // Declined card: no subscription.
    const declined = await payWithCard(base, WEEKLY, { number: '4000000000000002' });
    expect(declined.execution.status).toBe('authorizeFailed');
    expect(await create(purchaseBody(declined, buyer))).toMatchObject({ status: 402, body: cant });
    // Paid the weekly trial, claims the 3-month plan.
    const paid = await payWithCard(base, WEEKLY);
    expect(await create({ ...purchaseBody(paid, buyer), plan_id: THREE_MONTH })).toMatchObject({ status: 402, body: cant });
    // Another buyer replays someone's execution.
    const mine = await payWithCard(base, WEEKLY);
    expect((await create(purchaseBody(mine, buyer))).status).toBe(200);
    expect(await create(purchaseBody(mine, email('thief')))).toMatchObject({ status: 409, body: cant });
    // Unknown execution and plan.
    expect(await create({ ...purchaseBody(mine, buyer), instrument: { execution_id: 'exe_missing' } })).toMatchObject({
      status: 402,
      body: cant,
    });
    expect(await create({ ...purchaseBody(mine, buyer), plan_id: 'roots_nope' })).toMatchObject({ status: 400, body: cant });
    expect(await http(`${base}/init/session?plan_id=roots_nope`)).toMatchObject({
      status: 400,
      body: { error: "Can't find a plan for the parameter 'roots_nope'" },
    });
    expect((await http(`${base}/init/session`, { method: 'POST', json: { plan_id: THREE_MONTH } })).body).toMatchObject({
      plan_amount: 48,
    });
    // The checkout's getBearerToken callback: a fresh token of the same payment session.
    const init = await http<{ sessionId: string; bearerToken: string; expiresAt: string }>(`${base}/init/session`, {
      method: 'POST',
      json: { plan_id: WEEKLY },
    });
    const refreshed = await http<{ bearerToken: string; expiresAt: string }>(`${base}/init/session/token`, {
      json: { bearer_token: init.body.bearerToken },
    });
    expect(refreshed.status, refreshed.text).toBe(200);
    const claims = JSON.parse(Buffer.from(refreshed.body.bearerToken.split('.')[1] ?? '', 'base64url').toString()) as { sub: string };
    expect(claims.sub).toBe(init.body.sessionId);
    expect(Date.parse(refreshed.body.expiresAt)).toBeGreaterThanOrEqual(Date.parse(init.body.expiresAt));
    expect((await http(`${base}/init/session/token`, { json: { bearer_token: 'not.a.token' } })).status).toBe(401);
    expect((await http(`${base}/init/session/token`, { json: {} })).status).toBe(400);
    // Apple Pay merchant validation goes through the gateway.
    const validation = await http<{ data: { domainName: string } }>(`${base}/api/apple-pay/validate-merchant`, {
      json: { validationURL: 'https://apple-pay-gateway.apple.com/paymentservices/startSession', domain: 'roots.example' },
    });
    expect(validation.status, validation.text).toBe(200);
    expect(validation.body.data.domainName).toBe('roots.example');
    expect((await http(`${base}/api/apple-pay/validate-merchant`, { json: { validationURL: 'nope' } })).status).toBe(400);
    // Apple Pay endpoint verifies the same way.
    expect(
      await http(`${base}/subs/create-no-user-applepay`, {
        json: { plan_id: WEEKLY, email: buyer, execution_id: declined.execution.id, token: {}, consent: declined.init.disclosure },
      }),
    ).toMatchObject({
      status: 402,
      body: cant,
    });
    const applePaid = await payWithCard(base, WEEKLY);
    expect(
      (
        await http(`${base}/subs/create-no-user-applepay`, {
          json: {
            plan_id: WEEKLY,
            email: buyer,
            execution_id: applePaid.execution.id,
            token: { paymentData: 'x' },
            display_name: 'Visa',
            vault: true,
            consent: applePaid.init.disclosure,
          },
        })
      ).status,
    ).toBe(200);
    // The intent of the declined payment is closed, not left for the reconciler.
    const [intent] = await database.db.select().from(purchaseIntents).where(eq(purchaseIntents.executionId, declined.execution.id));
    expect(intent?.state).toBe('failed');
    // An email that bought nothing answers as one that did (no enumeration).
    expect(await http(`${base}/rec/subscriptions/${email('nobody')}`, { method: 'POST' })).toMatchObject({
      status: 200,
      body: { message: MESSAGES.checkYourEmail },
    });
  });

  it('rejects bad bodies with a 4xx and a code, never a 500', async () => {
    const cases: Array<[string, unknown, string?]> = [
      ['/subs/create-no-user', {}],
      [
        '/subs/create-no-user',
        { plan_id: WEEKLY, email: 'not-an-email', instrument: { execution_id: 'x' }, consent: { terms_text: 't', terms_version: 'v' } },
      ],
      [
        '/subs/create-no-user',
        {
          plan_id: WEEKLY,
          email: 'a@b.co',
          card: { number: '4242424242424242', cvc: '123' },
          consent: { terms_text: 't', terms_version: 'v' },
        },
      ],
      ['/subs/create-no-user', { plan_id: WEEKLY, email: 'a@b.co', instrument: { execution_id: 'x' } }],
      ['/subs/create-no-user', { plan_id: 1, email: 'a@b.co', subscription_id: 'not-a-uuid' }],
      ['/subs/create-no-user-applepay', { plan_id: WEEKLY }],
      ['/subs/create', { plan_id: WEEKLY, email: 'a@b.co' }],
      ['/subs/create-applepay', []],
      ['/subs/finalize', { subscription_id: 5 }],
      ['/api/cancel-request', { email: 'x' }],
      ['/api/cancel-request', { email: 'a@b.co', code: 'abc' }],
      ['/api/cancel', { id: 'nope' }],
      ['/event', { event: '' }],
      ['/event', 'not json', 'text'],
      ['/subs/create-no-user', '{"broken json', 'json-text'],
    ];
    for (const [path, body, kind] of cases) {
      const answer =
        kind === 'text'
          ? await http(`${base}${path}`, { body: String(body), headers: { 'content-type': 'text/plain' } })
          : kind === 'json-text'
            ? await http(`${base}${path}`, { body: String(body), headers: { 'content-type': 'application/json' } })
            : await http(`${base}${path}`, { json: body });
      expect(answer.status, `${path} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
      expect(answer.status, `${path} ${JSON.stringify(body)}`).toBeLessThan(500);
      expect(answer.body, path).toMatchObject({ error: expect.any(String), code: expect.any(String) });
    }
    const subsBad = await http(`${base}/subs/create-no-user`, { json: {} });
    expect(subsBad.body).toMatchObject({ error: MESSAGES.cantCreateSubscription, code: 'VALIDATION_ERROR' });
  });

  it('records funnel events, the remote address and subscription tracking', async () => {
    expect((await http(`${base}/remote-addr`)).body).toEqual({ ip: '127.0.0.1', country: '' });
    const event = await http<{ id: string }>(`${base}/event`, {
      json: {
        event: 'subscription offer',
        userAgent: 'UA/1',
        campaign: { project: 'roots', campaign_id: 'c9', ad_id: '', fbc: '  ' },
        value: 18.74,
      },
    });
    expect(event.status).toBe(201);
    const [stored] = await database.db.select().from(funnelEvents).where(eq(funnelEvents.id, event.body.id));
    expect(stored).toMatchObject({
      name: 'subscription offer',
      attribution: { project: 'roots', campaign_id: 'c9' },
      ip: '127.0.0.1',
      userAgent: 'UA/1',
      value: 18.74,
    });
    const tracking = await http(`${base}/subscriptions/00000000-0000-4000-8000-000000000001`, {
      body: 'purchase ok',
      headers: { 'content-type': 'text/plain' },
    });
    expect(tracking.status).toBe(201);
    expect((await http(`${base}/subscriptions/not-an-id`, { body: 'x', headers: { 'content-type': 'text/plain' } })).status).toBe(400);
  });

  it('collapses 200 duplicate submits of one purchase into one charge and one subscription', async () => {
    const buyer = email('storm');
    const paid = await payWithCard(base, WEEKLY);
    const body = purchaseBody(paid, buyer);
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => http<{ id: string }>(`${base}/subs/create-no-user`, { json: body })),
    );
    const statuses = answers.map((answer) => answer.status);
    const ids = new Set(answers.filter((answer) => answer.status === 200).map((answer) => answer.body.id));
    const rows = await database.db.select().from(subscriptions).where(eq(subscriptions.email, buyer));
    const chargeRows = await database.db.select().from(charges).where(eq(charges.subscriptionId, rows[0]!.id));
    const gatewayView = await gatewayExecution(paid.execution.id);
    console.info(
      `[concurrency ${url ? 'postgres' : 'pglite'}] 200 submits → statuses ${JSON.stringify(countBy(statuses))}, subscriptions ${rows.length}, charges ${chargeRows.length}, gateway execution ${gatewayView.status}`,
    );
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(ids.size).toBe(1);
    expect(rows).toHaveLength(1);
    expect(chargeRows).toHaveLength(1);
    expect(smtp.mails.filter((mail) => mail.to.includes(buyer)).length).toBeLessThanOrEqual(1);
  }, 60_000);
});

describe('rate limits', () => {
  it('limits every public endpoint per IP and per email', async () => {
    const database = await openTestDatabase(undefined);
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      WEB_DIST_DIR: makeWebDist(),
      GATEWAY_URL: gateway.url,
      RATE_LIMIT_PER_MINUTE: '5',
      EMAIL_RATE_LIMIT_PER_HOUR: '2',
    });
    const app = await buildApp({ config, database });
    try {
      const base = await app.listen({ host: '127.0.0.1', port: 0 });
      const cancel = () => http(`${base}/api/cancel-request`, { json: { email: 'limited@example.com' } });
      expect((await cancel()).status).toBe(404);
      expect((await cancel()).status).toBe(404);
      expect(await cancel()).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
      expect((await http(`${base}/remote-addr`)).status).toBe(200);
      expect((await http(`${base}/remote-addr`)).status).toBe(200);
      expect(await http(`${base}/remote-addr`)).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
      expect((await http(`${base}/healthz`)).status).toBe(200);
    } finally {
      await app.close();
      await database.close();
    }
  });
});

function countBy(values: number[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}
