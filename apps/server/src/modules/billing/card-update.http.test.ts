import { randomUUID } from 'node:crypto';
import { API_MESSAGES } from '@roots/contracts';
import type { CardUpdateCheckout, CardUpdateCompleteResponse } from '@roots/contracts/card-update';
import type { Execution, SdkInitPayload } from '@roots/contracts/gateway';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RootsApp } from '../../app';
import { DEV_SERVER_SECRETS } from '../../config/env';
import type { Database } from '../../db/database';
import { charges, subscriptions } from '../../db/schema';
import { DAY_MS, HOUR_MS, ManualClock } from '../../lib/clock';
import { cancelLinkToken } from '../links/cancel-link';
import { startGatewayProcess, type GatewayProcess } from '../../test/gateway-process';
import { testDatabases } from '../../test/helpers';
import { startProductOverHttp, type ProductOverHttp } from '../../test/product-over-http';
import { CookieJar, http, payInSession, payWithCard, purchaseBody } from '../../test/shopper';
import { signInWithEmailCode } from '../../test/sign-in';
import { startSmtp } from '../../test/smtp';
import { planTerms } from '../terms/plan-terms';
import { updateCardUrl } from '../links/update-card-link';

const WEEKLY = 'roots_3d1_7d2499';
const ULTIMATE = 'roots_ultimate_pack_4999_otp';
/** The sandbox card that pays with the shopper present and declines merchant charges: insufficient funds. */
const RUNS_DRY = '4000000000009953';

let gateway: GatewayProcess;
let smtp: Awaited<ReturnType<typeof startSmtp>>;

beforeAll(async () => {
  [gateway, smtp] = await Promise.all([startGatewayProcess(), startSmtp()]);
});
afterAll(async () => {
  await Promise.all([gateway?.stop(), smtp?.stop()]);
});

/** A checkout opened at the gateway directly (merchant API), as a forger with the merchant's own key would. */
async function gatewaySession(body: { amount: number; holderReference: string; orderReference: string }): Promise<SdkInitPayload> {
  const answer = await http<SdkInitPayload>(`${gateway.url}/merchant/v1/sessions`, {
    json: { amount: { value: body.amount, currency: 'USD' }, holderReference: body.holderReference, orderReference: body.orderReference },
    headers: { 'x-api-key': DEV_SERVER_SECRETS.GATEWAY_MERCHANT_SECRET, 'idempotency-key': randomUUID() },
  });
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

/** The execution as the gateway keeps it (merchant API), to see which card really paid. */
async function gatewayExecution(id: string): Promise<Execution> {
  const answer = await http<Execution>(`${gateway.url}/merchant/v1/executions/${id}`, {
    headers: { 'x-api-key': DEV_SERVER_SECRETS.GATEWAY_MERCHANT_SECRET },
  });
  return answer.body;
}

describe.each(testDatabases())('a new card on a subscription (issue 23, ADR 143) on $name', ({ url }) => {
  let database: Database;
  let app: RootsApp;
  let base: string;
  let product: ProductOverHttp | undefined;
  const clock = new ManualClock('2026-03-02T09:00:00.000Z');
  const email = (name: string) => `card-${name}.${url ? 'pg' : 'pglite'}@example.com`;

  beforeAll(async () => {
    product = await startProductOverHttp({ databaseUrl: url, gatewayUrl: gateway.url, clock, env: { SMTP_URL: smtp.url } });
    ({ database, app, base } = product);
    product.config.publicUrl = base;
  });
  afterAll(async () => {
    await product?.close();
  });

  const subscription = async (id: string) => (await database.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;
  const buy = async (planId: string, buyer: string, number = '4242424242424242') => {
    const paid = await payWithCard(base, planId, { number });
    expect(paid.execution.status).toBe('authorizeSuccessful');
    const created = await http<{ id: string }>(`${base}/subs/create-no-user`, { json: purchaseBody(paid, buyer), jar: new CookieJar() });
    expect(created.status, created.text).toBe(200);
    return { id: created.body.id, paid };
  };
  const linkContent = (id: string, at = clock.now()) => updateCardUrl(product!.config, id, at).split('/').pop()!;

  const openSignedIn = (id: string, cookie: string) =>
    http<CardUpdateCheckout>(`${base}/api/account/subscriptions/${id}/update-card`, { json: {}, headers: { cookie } });
  const completeSignedIn = (id: string, cookie: string, executionId: string) =>
    http<CardUpdateCompleteResponse>(`${base}/api/account/subscriptions/${id}/update-card/complete`, {
      json: { execution_id: executionId },
      headers: { cookie },
    });
  const openByLink = (content: string) => http<CardUpdateCheckout>(`${base}/api/update-card/${content}`, { json: {} });
  const completeByLink = (content: string, executionId: string) =>
    http<CardUpdateCompleteResponse>(`${base}/api/update-card/${content}/complete`, { json: { execution_id: executionId } });
  /** What the checkout's card form does with the card in the verification checkout: tokenize, store, authorize for nothing. */
  const enterCard = async (checkout: CardUpdateCheckout['checkout'], number: string) => {
    const { execution, instrumentId } = await payInSession(checkout, { number });
    return { execution, instrumentId };
  };

  it('the signed-in owner puts a new card on a trial: the renewal charges it, nothing moves earlier, completing twice changes nothing', async () => {
    const buyer = email('owner');
    const { id } = await buy(WEEKLY, buyer);
    const before = await subscription(id);
    const cookie = await signInWithEmailCode(app, buyer, base, smtp);

    const opened = await openSignedIn(id, cookie);
    expect(opened.status, opened.text).toBe(200);
    // A card verification of nothing, card only, for the subscription's own card holder.
    expect(opened.body.checkout.amount).toEqual({ value: 0, currency: 'USD' });
    expect(opened.body.checkout.paymentMethods.map((method) => method.code)).toEqual(['card']);
    expect(opened.body.checkout.holderReference).toBe(before.holderReference);
    expect(opened.body.subscription).toEqual({
      subscription_id: id,
      plan_id: WEEKLY,
      plan_name: planTerms(product!.config.catalog, WEEKLY)!.name,
      status: 'trialing',
      card_last4: '4242',
      card_network: 'visa',
      next_payment_amount: 24.99,
      currency: 'USD',
      next_payment_at: before.dueAt!.toISOString(),
      retry_now: false,
    });

    const { execution, instrumentId } = await enterCard(opened.body.checkout, '5555555555554444');
    expect(execution).toMatchObject({ status: 'authorizeSuccessful', orderReference: `card:${id}`, amount: { value: 0 } });
    const done = await completeSignedIn(id, cookie, execution.id);
    expect(done.status, done.text).toBe(200);
    expect(done.body.subscription).toMatchObject({ card_last4: '4444', card_network: 'mastercard', status: 'trialing', retry_now: false });
    expect(done.body.subscription.next_payment_at).toBe(before.dueAt!.toISOString());
    const updated = await subscription(id);
    expect(updated).toMatchObject({ instrumentId, cardLast4: '4444', cardNetwork: 'mastercard', status: 'trialing' });
    expect(updated.instrumentId).not.toBe(before.instrumentId);
    expect(updated.dueAt).toEqual(before.dueAt);

    // The same completion again, a minute later: the same answer, nothing written.
    clock.advance(60_000);
    const again = await completeSignedIn(id, cookie, execution.id);
    expect(again).toMatchObject({ status: 200, body: done.body });
    expect((await subscription(id)).updatedAt).toEqual(updated.updatedAt);

    // The trial converts on the new card.
    clock.advance(3 * DAY_MS + HOUR_MS);
    expect((await app.roots.billing.tick()).processed).toMatchObject({ renewed: expect.any(Number) });
    expect(await subscription(id)).toMatchObject({ status: 'active', currentPeriod: 1 });
    const [renewal] = await database.db
      .select()
      .from(charges)
      .where(and(eq(charges.subscriptionId, id), eq(charges.kind, 'renewal')));
    expect(renewal).toMatchObject({ status: 'succeeded', amountMinor: 2499 });
    expect((await gatewayExecution(renewal!.executionId!)).instrument?.id).toBe(instrumentId);
  });

  it('refuses another customer’s subscription, forged and expired links, and executions that are not this subscription’s verified card', async () => {
    const mine = await buy(WEEKLY, email('mine'));
    const theirs = await buy(WEEKLY, email('theirs'));
    const theirCookie = await signInWithEmailCode(app, email('theirs'), base, smtp);
    const untouched = await subscription(mine.id);

    // Signed in as someone else: the same answer as an unknown id, and no checkout.
    for (const id of [mine.id, '00000000-0000-4000-8000-000000000000']) {
      expect(await openSignedIn(id, theirCookie)).toMatchObject({
        status: 404,
        body: { error: API_MESSAGES.cardUpdateNotFound, code: 'NOT_FOUND' },
      });
    }
    expect(await completeSignedIn(mine.id, theirCookie, 'exe_anything')).toMatchObject({ status: 404 });
    expect(await openSignedIn(mine.id, '')).toMatchObject({ status: 401 });

    // Links: forged, signed with another secret, of another purpose (a cancel link), expired.
    const content = linkContent(mine.id);
    const forged = `${content.slice(0, -1)}${content.endsWith('A') ? 'B' : 'A'}`;
    const foreignSecret = updateCardUrl(
      { ...product!.config, APP_SECRET: 'another-secret-of-at-least-32-characters!' },
      mine.id,
      clock.now(),
    )
      .split('/')
      .pop()!;
    const cancelLink = cancelLinkToken(product!.config.APP_SECRET, mine.id, clock.now());
    const expired = linkContent(mine.id, new Date(clock.now().getTime() - 31 * DAY_MS));
    for (const link of [forged, foreignSecret, cancelLink, expired]) {
      expect(await openByLink(link)).toMatchObject({ status: 404, body: { error: API_MESSAGES.cardUpdateLinkInvalid, code: 'NOT_FOUND' } });
      expect(await completeByLink(link, 'exe_anything')).toMatchObject({ status: 404 });
    }

    // A live link opens the checkout; what is completed with it must be this subscription's verified card.
    const opened = await openByLink(content);
    expect(opened.status, opened.text).toBe(200);
    const theirCheckout = await openSignedIn(theirs.id, theirCookie);
    const theirCard = await enterCard(theirCheckout.body.checkout, '5555555555554444');
    const declined = await enterCard(opened.body.checkout, '4000000000000002');
    expect(declined.execution.status).toBe('authorizeFailed');
    // The right card holder, but verified for another subscription of it, or not a verification (a payment).
    const holderReference = untouched.holderReference;
    const otherSubscription = await enterCard(
      await gatewaySession({ amount: 0, holderReference, orderReference: `card:${theirs.id}` }),
      '5555555555554444',
    );
    const payment = await enterCard(
      await gatewaySession({ amount: 100, holderReference, orderReference: `card:${mine.id}` }),
      '5555555555554444',
    );
    expect([otherSubscription.execution.status, payment.execution.status]).toEqual(['authorizeSuccessful', 'authorizeSuccessful']);
    for (const executionId of [
      theirCard.execution.id,
      mine.paid.execution.id,
      declined.execution.id,
      otherSubscription.execution.id,
      payment.execution.id,
      'exe_unknown',
    ]) {
      expect(await completeByLink(content, executionId)).toMatchObject({
        status: 422,
        body: { error: API_MESSAGES.cardUpdateNotVerified, code: 'UNPROCESSABLE' },
      });
    }
    expect(await subscription(mine.id)).toEqual(untouched);
    // The other customer's verified card is not theirs to put on my subscription, but it is on theirs.
    expect((await completeSignedIn(theirs.id, theirCookie, theirCard.execution.id)).body.subscription.card_last4).toBe('4444');
  });

  it('refuses a one-time pack, a canceled subscription and one that has ended', async () => {
    const pack = await buy(ULTIMATE, email('pack'));
    expect(await openByLink(linkContent(pack.id))).toMatchObject({
      status: 422,
      body: { error: API_MESSAGES.cardUpdateOneTime, code: 'UNPROCESSABLE' },
    });

    const buyer = email('leaving');
    const { id } = await buy(WEEKLY, buyer);
    const cookie = await signInWithEmailCode(app, buyer, base, smtp);
    // Opened before the cancel: the completion re-checks and refuses.
    const opened = await openSignedIn(id, cookie);
    const card = await enterCard(opened.body.checkout, '5555555555554444');
    expect((await http(`${base}/api/account/subscriptions/${id}/cancel`, { json: {}, headers: { cookie } })).status).toBe(200);
    expect((await subscription(id)).status).toBe('canceled');
    expect(await openSignedIn(id, cookie)).toMatchObject({
      status: 409,
      body: { error: API_MESSAGES.cardUpdateCanceled, code: 'CONFLICT' },
    });
    expect(await completeSignedIn(id, cookie, card.execution.id)).toMatchObject({
      status: 409,
      body: { error: API_MESSAGES.cardUpdateCanceled },
    });

    clock.advance(3 * DAY_MS + HOUR_MS);
    await app.roots.billing.tick();
    expect((await subscription(id)).status).toBe('expired');
    expect(await openByLink(linkContent(id))).toMatchObject({
      status: 409,
      body: { error: API_MESSAGES.cardUpdateEnded, code: 'CONFLICT' },
    });
    expect((await subscription(id)).cardLast4).toBe('4242');
  });

  it('a past-due subscription: the payment-failed email links to the update-card page, and the new card is charged at the next pass', async () => {
    const buyer = email('dunning');
    const { id } = await buy(WEEKLY, buyer, RUNS_DRY);
    await app.roots.emails.idle();
    const oldInstrument = (await subscription(id)).instrumentId;

    // The trial ends; the card runs dry: a soft decline, retried in 24 hours, and the customer is told.
    clock.advance(3 * DAY_MS + HOUR_MS);
    expect((await app.roots.billing.tick()).processed).toMatchObject({ soft_declined: 1 });
    const pastDue = await subscription(id);
    expect(pastDue).toMatchObject({ status: 'past_due', retryCount: 1, currentPeriod: 0 });
    expect(pastDue.dueAt?.getTime()).toBe(clock.now().getTime() + 24 * HOUR_MS);
    const mail = await smtp.waitFor((message) => message.to.includes(buyer) && message.subject.includes('could not renew'));
    expect(mail.text).toContain('to the card ending in 9953');
    const link = /Add it here and we try the payment again right away: (http:\/\/\S+\/roots\/update-card\/([\w.-]+))/.exec(mail.text);
    expect(link?.[1]).toBe(`${base}/roots/update-card/${link?.[2]}`);
    const content = link?.[2] ?? '';

    const opened = await openByLink(content);
    expect(opened.status, opened.text).toBe(200);
    expect(opened.body.subscription).toMatchObject({
      status: 'past_due',
      card_last4: '9953',
      retry_now: true,
      next_payment_amount: 24.99,
      next_payment_at: pastDue.dueAt!.toISOString(),
    });
    const { execution, instrumentId } = await enterCard(opened.body.checkout, '4242424242424242');
    const done = await completeByLink(content, execution.id);
    expect(done.status, done.text).toBe(200);
    // Due now: the next billing pass tries the payment again on the new card.
    expect(done.body.subscription).toMatchObject({ card_last4: '4242', retry_now: true, next_payment_at: clock.now().toISOString() });
    expect(await subscription(id)).toMatchObject({ status: 'past_due', instrumentId, dueAt: clock.now(), retryCount: 1 });

    expect((await app.roots.billing.tick()).processed).toMatchObject({ renewed: 1 });
    const renewed = await subscription(id);
    expect(renewed).toMatchObject({ status: 'active', currentPeriod: 1, retryCount: 0, instrumentId });
    const attempts = await database.db
      .select()
      .from(charges)
      .where(and(eq(charges.subscriptionId, id), eq(charges.kind, 'renewal')));
    expect(attempts.map((charge) => [charge.attempt, charge.status, charge.declineCode]).sort()).toEqual([
      [0, 'failed', 'insufficient_funds'],
      [1, 'succeeded', null],
    ]);
    const paidBy = (attempt: number) => gatewayExecution(attempts.find((charge) => charge.attempt === attempt)!.executionId!);
    expect((await paidBy(0)).instrument?.id).toBe(oldInstrument);
    expect((await paidBy(1)).instrument?.id).toBe(instrumentId);

    // The link completed again after the renewal: harmless, the paid period's due date stays.
    expect((await completeByLink(content, execution.id)).status).toBe(200);
    expect((await subscription(id)).dueAt).toEqual(renewed.dueAt);
  });
});
