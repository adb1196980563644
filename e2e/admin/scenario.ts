import { randomUUID } from 'node:crypto';
import { expect, request as playwrightRequest, type APIRequestContext } from '@playwright/test';
import type { SdkInitPayload } from '@roots/contracts/gateway';
import type { InitSessionResponse } from '@roots/contracts/subscriptions';

/**
 * A scenario driven through the running product over HTTP, as browsers and the checkout SDK would
 * (no row is inserted): tracked visits' funnel events (with their visit, as the page sends them),
 * purchases with the sandbox's card, a tracked visit's purchase report, a money-back cancel with
 * refund. It returns the figures the operator console must show for it, tallied from what it did
 * (docs/metrics.md defines each figure).
 */

export const WEEKLY = 'roots_3d1_7d2499';
export const THREE_MONTH = 'roots_3m4800_3m4999';
/** First charges of the plans above, in minor units. */
const FIRST_CHARGE_MINOR: Record<string, number> = { [WEEKLY]: 100, [THREE_MONTH]: 4800 };

export type Buyer = { email: string; planId: string; subscriptionId: string; executionId: string; context: APIRequestContext };

function sdkHeaders(session: SdkInitPayload): Record<string, string> {
  return {
    authorization: `Bearer ${session.bearerToken}`,
    'x-client-version': '5.26.0',
    'x-client-type': 'web',
    'idempotency-key': randomUUID(),
  };
}

/**
 * One buyer with their own cookie jar (purchase cookies stay theirs): the checkout's calls, then the
 * purchase, paid with the sandbox card `cardNumber` (a plain success card unless told).
 */
export async function buy(baseURL: string, planId: string, email: string, cardNumber = '4242424242424242'): Promise<Buyer> {
  const context = await playwrightRequest.newContext({ baseURL });
  const init = await context.get(`/init/session?plan_id=${planId}`);
  expect(init.status(), await init.text()).toBe(200);
  const initBody = (await init.json()) as InitSessionResponse;
  const session: SdkInitPayload = initBody;
  const token = await context.post(session.links.tokenize, {
    headers: sdkHeaders(session),
    data: { cardNumber, expiryMonth: '12', expiryYear: '2034', cvv: '123' },
  });
  expect(token.status(), await token.text()).toBe(201);
  const instrument = await context.post(session.links.saveInstrument, {
    headers: sdkHeaders(session),
    data: {
      holderReference: session.holderReference,
      paymentMethod: 'card',
      storeInstrument: true,
      futureUsage: 'Subscription',
      data: { encryptedData: ((await token.json()) as { token: string }).token, vaultProviderConfigId: session.vaultProviderConfigId },
    },
  });
  expect(instrument.status(), await instrument.text()).toBe(201);
  const instrumentId = ((await instrument.json()) as { id: string }).id;
  const execution = await context.post(session.links.authorize, {
    headers: sdkHeaders(session),
    data: {
      amount: session.amount,
      paymentComposition: [{ paymentMethodCode: 'card', integrationType: 'api', paymentInstrumentId: instrumentId, storeInstrument: true }],
    },
  });
  expect(execution.status(), await execution.text()).toBe(200);
  const executionId = ((await execution.json()) as { id: string }).id;
  const created = await context.post('/subs/create-no-user', {
    data: {
      plan_id: initBody.plan_id,
      email,
      instrument: { execution_id: executionId, instrument_id: instrumentId },
      consent: initBody.disclosure,
      attribution: { project: 'roots', campaign_name: 'winter', media_source: 'fb' },
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  return { email, planId, subscriptionId: ((await created.json()) as { id: string }).id, executionId, context };
}

export type TrackedVisit = { id: string; variant: 'walkthrough' | 'quiz' };

/** A tracked visit's funnel events as its pages send them (POST /event, with the visit), from a visitor in `country`. */
export async function visit(baseURL: string, steps: readonly string[], country: string, path = '/roots/'): Promise<TrackedVisit> {
  const tracked: TrackedVisit = { id: randomUUID(), variant: path.endsWith('/quiz') ? 'quiz' : 'walkthrough' };
  const context = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { 'x-e2e-country': country } });
  for (const event of steps) {
    const sent = await context.post('/event', {
      data: {
        event,
        campaign: { project: 'roots', campaign_name: 'winter', media_source: 'fb', event_source_url: `${baseURL}${path}` },
        visit: tracked,
      },
    });
    expect(sent.status()).toBe(201);
  }
  await context.dispose();
  return tracked;
}

/** The tracked page's report of its purchase (POST /subscriptions/{id}: its attribution and visit as text). */
export async function reportPurchase(baseURL: string, buyer: Buyer, tracked: TrackedVisit): Promise<void> {
  // From the buyer's page of ours: the request names our origin (ADR 111).
  const sent = await buyer.context.post(`/subscriptions/${buyer.subscriptionId}`, {
    headers: { 'content-type': 'text/plain', origin: new URL(baseURL).origin },
    data: JSON.stringify({ project: 'roots', campaign_name: 'winter', media_source: 'fb', visit: tracked }),
  });
  expect(sent.status()).toBe(201);
}

export type ScenarioFigures = {
  landing: number;
  consent: number;
  selfie: number;
  email: number;
  paywall: number;
  purchase: number;
  quizLanding: number;
  trialsStarted: number;
  directPurchases: number;
  activePaying: number;
  activeTrials: number;
  mrrMinor: number;
  grossMinor: number;
  refunds: number;
  refundedMinor: number;
  cancellations: number;
  buyers: Buyer[];
};

const FUNNEL_TO_PAYWALL = ['intro', 'onboarding', 'selfie', 'selfie processing', 'e-mail screen', 'subscription offer'] as const;

/**
 * Five tracked visits sent over HTTP: three reach the paywall (one of them reloads the landing page
 * and the paywall: the same visit), one leaves after consent, one after the selfie. Three buyers
 * (two weekly trials, one three-month plan: a paid introductory period, not a trial); only the
 * quiz visit's buyer was tracked and reports its purchase. The first weekly buyer cancels by id with
 * the money-back refund; the three-month buyer is kept for the operator's refund. `browserVisits`
 * tracked visits made by real pages (landing only, `browserQuizVisits` of them on the quiz) add to
 * the landing counts.
 */
export async function runScenario(baseURL: string, tag: string, browserVisits = 0, browserQuizVisits = 0): Promise<ScenarioFigures> {
  await visit(baseURL, [...FUNNEL_TO_PAYWALL, 'intro', 'subscription offer'], 'US');
  await visit(baseURL, FUNNEL_TO_PAYWALL, 'US');
  const quiz = await visit(baseURL, FUNNEL_TO_PAYWALL, 'BR', '/roots/quiz');
  await visit(baseURL, ['intro', 'onboarding'], 'US');
  await visit(baseURL, ['intro', 'onboarding', 'selfie'], 'CA');
  const buyers = [
    await buy(baseURL, WEEKLY, `weekly-a-${tag}@example.com`),
    await buy(baseURL, WEEKLY, `weekly-b-${tag}@example.com`),
    await buy(baseURL, THREE_MONTH, `quarter-${tag}@example.com`),
  ];
  await reportPurchase(baseURL, buyers[2]!, quiz);
  // From a page of ours, as the browser that bought it: the request names our origin (ADR 111).
  const refunded = await buyers[0]!.context.post('/api/cancel', {
    data: { id: buyers[0]!.subscriptionId, refund: true },
    headers: { origin: new URL(baseURL).origin },
  });
  expect(refunded.status(), await refunded.text()).toBe(200);
  expect(await refunded.json()).toMatchObject({ refunded: 1 });
  return {
    landing: 5 + browserVisits,
    consent: 5,
    selfie: 4,
    email: 3,
    paywall: 3,
    purchase: 1,
    quizLanding: 1 + browserQuizVisits,
    trialsStarted: 2,
    directPurchases: 1,
    // Now: the three-month buyer pays ($48 for 3 months: $16.00 a month); weekly-b is in its trial;
    // weekly-a was refunded and has ended.
    activePaying: 1,
    activeTrials: 1,
    mrrMinor: FIRST_CHARGE_MINOR[THREE_MONTH]! / 3,
    grossMinor: buyers.reduce((sum, buyer) => sum + FIRST_CHARGE_MINOR[buyer.planId]!, 0),
    refunds: 1,
    refundedMinor: FIRST_CHARGE_MINOR[WEEKLY]!,
    cancellations: 1,
    buyers,
  };
}
