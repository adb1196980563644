import { randomUUID } from 'node:crypto';
import type { Execution } from '@roots/contracts/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorize,
  bearer,
  call,
  cardAuthorizeBody,
  createSession,
  merchantHeaders,
  payByCard,
  postForm,
  saveInstrument,
  startGateway,
  tokenize,
  type TestGateway,
} from '../../../test/helpers';
import { SOFT_DECLINE_CODES } from './adyen-codes';
import { adyenEnv, MERCHANT_ACCOUNT } from './testing/adyen-env';
import { CHECKOUT_DEFINITION, definitionExample, startPrism, type PrismMock, type SeenRequest } from './testing/prism';

/**
 * The execution journeys again with GATEWAY_PROCESSOR=adyen, against `prism mock --errors` on
 * Adyen's Checkout v71 definition: every request the connector sends must pass Adyen's schema
 * (Prism answers 422 otherwise, and each test checks none was refused), and Adyen's named
 * examples answer. Prism has no example of a Refused payment: declines replace Prism's answer
 * (after Prism validated the request) with the definition's resultCode `Refused` and a refusal
 * reason from Adyen's list. Timeouts are dropped connections on the hop in front of Prism.
 */
const ADYEN_TEST_CARD = { number: '4111111111111111', month: '03', year: '2030', name: 'John Smith' };

let prism: PrismMock;
let gateway: TestGateway;

beforeAll(async () => {
  prism = await startPrism();
  gateway = await startGateway(adyenEnv(prism.url), { captureLogs: true });
}, 120_000);

afterAll(async () => {
  await gateway?.close();
  await prism?.stop();
});

function seenFor(executionId: string): SeenRequest[] {
  return prism.seen.filter((entry) => entry.body.reference === executionId || entry.idempotencyKey?.startsWith(`${executionId}:`));
}

async function merchantExecution(id: string): Promise<Execution> {
  const answer = await call<Execution>(`${gateway.url}/merchant/v1/executions/${id}`, { headers: merchantHeaders() });
  expect(answer.status).toBe(200);
  return answer.body;
}

function refusal(code: string, reason: string) {
  return (answer: Record<string, unknown>) => ({
    pspReference: answer.pspReference,
    merchantReference: answer.merchantReference,
    resultCode: 'Refused',
    refusalReason: reason,
    refusalReasonCode: code,
  });
}

async function storedCard(holderReference = `holder-${randomUUID()}`) {
  const { execution, instrument } = await payByCard(gateway, ADYEN_TEST_CARD, { storeInstrument: true, holderReference });
  expect(execution.body.status).toBe('authorizeSuccessful');
  return { holderReference, instrumentId: instrument.id, first: execution.body };
}

async function charge(
  input: { instrumentId: string; holderReference: string; amount?: number; reason?: 'recurring' | 'unscheduled' },
  key = randomUUID(),
) {
  return call<Execution & { code?: string }>(`${gateway.url}/merchant/v1/charges`, {
    headers: merchantHeaders(),
    idempotencyKey: key,
    json: {
      instrumentId: input.instrumentId,
      holderReference: input.holderReference,
      amount: { value: input.amount ?? 999, currency: 'USD' },
      reason: input.reason ?? 'recurring',
    },
  });
}

describe('Adyen processor against Adyen’s definition (Prism)', () => {
  it('Prism refuses a request that breaks the definition (the double validates)', async () => {
    const example = definitionExample(CHECKOUT_DEFINITION, 'post-payments-card-direct');
    const answer = await fetch(`${prism.url}/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k' },
      body: JSON.stringify({ ...example, shopperReference: 'ab', amount: { currency: 'USD', value: 10.5 } }),
    });
    expect(answer.status).toBe(422);
  });

  it('first payment from the vaulted card stores it at Adyen: storePaymentMethod, shopperReference, Subscription, Ecommerce', async () => {
    const { first, instrumentId, holderReference } = await storedCard();
    const [sent, ...rest] = seenFor(first.id);
    expect(rest).toEqual([]);
    expect(sent).toMatchObject({ path: '/payments', status: 200, idempotencyKey: `${first.id}:payment:1` });
    expect(sent?.body).toMatchObject({
      merchantAccount: MERCHANT_ACCOUNT,
      reference: first.id,
      amount: { value: 2499, currency: 'USD' },
      storePaymentMethod: true,
      recurringProcessingModel: 'Subscription',
      shopperInteraction: 'Ecommerce',
      paymentMethod: { type: 'scheme', number: ADYEN_TEST_CARD.number, expiryMonth: '03', expiryYear: '2030', holderName: 'John Smith' },
    });
    // A shopper reference per customer, without the customer's own reference in it.
    const shopperReference = String(sent?.body.shopperReference);
    expect(shopperReference).toMatch(/^roots-[\w-]{32}$/);
    expect(shopperReference).not.toContain(holderReference);
    expect(first.instrument?.status).toBe('enabled');
    expect(instrumentId).toBe(first.instrument?.id);
    expect(prism.invalid()).toEqual([]);
  });

  it('renewals and one-click add-ons are merchant-initiated with the stored payment method (ContAuth, Subscription / CardOnFile)', async () => {
    const card = await storedCard();
    const renewal = await charge({ ...card, reason: 'recurring' });
    expect(renewal.status).toBe(201);
    expect(renewal.body.status).toBe('authorizeSuccessful');
    const addOn = await charge({ ...card, reason: 'unscheduled', amount: 499 });
    expect(addOn.body.status).toBe('authorizeSuccessful');
    const [renewalSent] = seenFor(renewal.body.id);
    const [addOnSent] = seenFor(addOn.body.id);
    // Adyen's example's stored payment method id (subscription-first-transaction), and no card data.
    expect(renewalSent?.body).toMatchObject({
      paymentMethod: { type: 'scheme', storedPaymentMethodId: 'M5N7TQ4TG5PFWR50' },
      shopperInteraction: 'ContAuth',
      recurringProcessingModel: 'Subscription',
      amount: { value: 999, currency: 'USD' },
    });
    expect(JSON.stringify(renewalSent?.body)).not.toContain(ADYEN_TEST_CARD.number);
    expect(addOnSent?.body).toMatchObject({ shopperInteraction: 'ContAuth', recurringProcessingModel: 'CardOnFile' });
    expect(renewalSent?.body.shopperReference).toBe(seenFor(card.first.id)[0]?.body.shopperReference);
    expect(prism.invalid()).toEqual([]);
  });

  it('3-D Secure: the redirect action, the challenge page forwards (GET), the return with redirectResult finishes with /payments/details', async () => {
    prism.plan('/payments', { prefer: 'example=card-3d-secure-redirect' });
    const { execution } = await payByCard(gateway, ADYEN_TEST_CARD);
    expect(execution.body.status).toBe('authorizePending');
    const threeDS = execution.body.links.threeDS;
    expect(threeDS?.href).toContain(`/3ds/${execution.body.id}?t=`);
    const page = await fetch(threeDS!.href, { redirect: 'manual' });
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('https://checkoutshopper-test.adyen.com/checkoutshopper/threeDS/redirect...');
    // The payment request named where the issuer sends the shopper back.
    const [paymentSent] = seenFor(execution.body.id);
    const returnUrl = String(paymentSent?.body.returnUrl);
    expect(returnUrl).toBe(`${gateway.url}/3ds/${execution.body.id}/return?t=${new URL(threeDS!.href).searchParams.get('t')}`);
    const { details } = definitionExample<{ details: { redirectResult: string } }>(
      CHECKOUT_DEFINITION,
      'post-payments-details-00.redirect',
    );
    const back = new URL(returnUrl);
    back.searchParams.set('redirectResult', details.redirectResult);
    const done = await call<string>(back.toString());
    expect(done.text).toContain('data-status="authorizeSuccessful"');
    const detailsSent = seenFor(execution.body.id).find((entry) => entry.path === '/payments/details');
    expect(detailsSent).toMatchObject({ status: 200, idempotencyKey: `${execution.body.id}:details:1`, body: { details } });
    expect((await merchantExecution(execution.body.id)).status).toBe('authorizeSuccessful');
    // A reload of the return page changes nothing and calls Adyen no more.
    const count = prism.seen.length;
    expect((await call<string>(back.toString())).text).toContain('data-status="authorizeSuccessful"');
    expect(prism.seen.length).toBe(count);
    expect(prism.invalid()).toEqual([]);
  });

  it('3-D Secure: a POST redirect action is forwarded by a self-submitting form, and Adyen may return by POST', async () => {
    prism.plan('/payments', {
      prefer: 'example=card-3d-secure-redirect',
      // The definition's CheckoutRedirectAction with method POST and its data (the example is a GET).
      replace: (answer) => ({
        ...answer,
        action: {
          type: 'redirect',
          method: 'POST',
          url: 'https://acs.example.test/challenge',
          data: { PaReq: 'BQABAgA', TermUrl: 'x', MD: 'md-1' },
        },
      }),
    });
    const { execution } = await payByCard(gateway, ADYEN_TEST_CARD);
    const page = await call<string>(execution.body.links.threeDS!.href);
    expect(page.text).toContain('action="https://acs.example.test/challenge"');
    expect(page.text).toContain('name="PaReq" value="BQABAgA"');
    expect(page.headers.get('content-security-policy')).toContain('form-action https://acs.example.test');
    const returnUrl = new URL(String(seenFor(execution.body.id)[0]?.body.returnUrl));
    const done = await postForm(returnUrl.toString(), { redirectResult: 'X6XtfGC3!Y...' });
    expect(done.text).toContain('data-status="authorizeSuccessful"');
    expect(prism.invalid()).toEqual([]);
  });

  it('a soft decline (Not enough balance) and a hard one (Expired Card) map to decline codes the dunning reads', async () => {
    const card = await storedCard();
    prism.plan('/payments', { prefer: 'example=card-direct', replace: refusal('12', 'Not enough balance') });
    const soft = await charge(card);
    expect(soft.status).toBe(201);
    expect(soft.body.status).toBe('authorizeFailed');
    expect(soft.body.finalState?.errors[0]?.reason.code).toBe('insufficient_funds');
    expect(SOFT_DECLINE_CODES.has('insufficient_funds')).toBe(true);
    prism.plan('/payments', { prefer: 'example=card-direct', replace: refusal('6', 'Expired Card') });
    const hard = await charge(card);
    expect(hard.body.finalState?.errors[0]?.reason.code).toBe('expired_card');
    expect(SOFT_DECLINE_CODES.has('expired_card')).toBe(false);
    // The shopper present: a refused first payment fails the execution, the shopper may retry.
    prism.plan('/payments', { prefer: 'example=card-direct', replace: refusal('24', 'CVC Declined') });
    const { execution } = await payByCard(gateway, ADYEN_TEST_CARD);
    expect(execution.body.finalState?.errors[0]?.reason.code).toBe('incorrect_cvc');
    expect(prism.invalid()).toEqual([]);
  });

  it('an answer the connector cannot map fails the execution loudly with the raw code in the log, never as success', async () => {
    prism.plan('/payments', { prefer: 'example=card-direct', replace: refusal('999', 'Something new') });
    const { execution } = await payByCard(gateway, ADYEN_TEST_CARD);
    expect(execution.body.status).toBe('authorizeFailed');
    expect(execution.body.finalState?.errors[0]?.reason.code).toBe('card_declined');
    prism.plan('/payments', { prefer: 'example=card-direct', replace: (answer) => ({ ...answer, resultCode: 'PresentToShopper' }) });
    const other = await payByCard(gateway, ADYEN_TEST_CARD);
    expect(other.execution.body.status).toBe('authorizeFailed');
    const lines = gateway.logs.filter((line) => line.includes('Adyen answer not mappable'));
    expect(lines.some((line) => line.includes(execution.body.id) && line.includes('refusalReasonCode 999'))).toBe(true);
    expect(lines.some((line) => line.includes(other.execution.body.id) && line.includes('PresentToShopper'))).toBe(true);
    expect(lines.every((line) => JSON.parse(line).level === 50)).toBe(true);
  });

  it('refunds by pspReference, partial then the remainder; nothing more is refundable', async () => {
    const { execution } = await payByCard(gateway, ADYEN_TEST_CARD);
    const id = execution.body.id;
    const refunds = `${gateway.url}/merchant/v1/executions/${id}/refunds`;
    const partial = await call<{ execution: Execution }>(refunds, {
      headers: merchantHeaders(),
      json: { amount: { value: 1000, currency: 'USD' } },
    });
    expect(partial.status).toBe(201);
    expect(partial.body.execution.amountRefunded).toBe(1000);
    const rest = await call<{ execution: Execution }>(refunds, { headers: merchantHeaders(), json: {} });
    expect(rest.status).toBe(201);
    expect(rest.body.execution.amountRefunded).toBe(2499);
    const more = await call<{ code: string }>(refunds, { headers: merchantHeaders(), json: {} });
    expect(more.status).toBe(422);
    expect(more.body.code).toBe('REFUND_NOT_ALLOWED');
    const sent = seenFor(id).filter((entry) => entry.path.endsWith('/refunds'));
    // card-direct's pspReference: the payment Adyen knows.
    expect(sent.map((entry) => [entry.path, (entry.body.amount as { value: number }).value])).toEqual([
      ['/payments/993617895204576J/refunds', 1000],
      ['/payments/993617895204576J/refunds', 1499],
    ]);
    expect(sent.every((entry) => entry.status === 201 && entry.body.merchantAccount === MERCHANT_ACCOUNT)).toBe(true);
    expect(prism.invalid()).toEqual([]);
  });

  it('a timeout is retried with the same idempotency key', async () => {
    prism.plan('/payments', { drop: true });
    const { execution } = await payByCard(gateway, ADYEN_TEST_CARD);
    expect(execution.body.status).toBe('authorizeSuccessful');
    const sent = seenFor(execution.body.id);
    expect(sent.map((entry) => entry.dropped === true)).toEqual([true, false]);
    expect(new Set(sent.map((entry) => entry.idempotencyKey))).toEqual(new Set([`${execution.body.id}:payment:1`]));
  }, 30_000);

  it('a 5xx is retried with the same idempotency key', async () => {
    prism.plan('/payments', { prefer: 'code=500' });
    const { execution } = await payByCard(gateway, ADYEN_TEST_CARD);
    expect(execution.body.status).toBe('authorizeSuccessful');
    const sent = seenFor(execution.body.id);
    expect(sent.map((entry) => entry.status)).toEqual([500, 200]);
    expect(sent[0]?.idempotencyKey).toBe(sent[1]?.idempotencyKey);
  }, 30_000);

  it('no answer after the retries: the payment stays requested, and the sweep’s listing settles it by reading with the same key', async () => {
    prism.plan('/payments', { drop: true }, { drop: true }, { drop: true });
    const { execution, session } = await payByCard(gateway, ADYEN_TEST_CARD);
    expect(execution.body.status).toBe('authorizeRequested');
    const listing = await call<{ items: Array<{ id: string; status: string }> }>(
      `${gateway.url}/merchant/v1/executions?since=${encodeURIComponent(new Date(Date.now() - 60_000).toISOString())}&limit=100`,
      { headers: merchantHeaders() },
    );
    expect(listing.body.items.find((item) => item.id === execution.body.id)?.status).toBe('authorizeSuccessful');
    const sent = seenFor(execution.body.id);
    expect(sent.map((entry) => entry.dropped === true)).toEqual([true, true, true, false]);
    expect(new Set(sent.map((entry) => entry.idempotencyKey)).size).toBe(1);
    // The SDK's poll sees the same.
    const polled = await call<Execution>(session.links.execution, { headers: bearer(session) });
    expect(polled.body.status).toBe('authorizeSuccessful');
  }, 60_000);

  it('a merchant charge without an answer is 503 PAYMENT_OUTCOME_UNKNOWN; the retry with the same key settles the same execution', async () => {
    const card = await storedCard();
    prism.plan('/payments', { drop: true }, { drop: true }, { drop: true });
    const key = randomUUID();
    const first = await charge(card, key);
    expect(first.status).toBe(503);
    expect(first.body.code).toBe('PAYMENT_OUTCOME_UNKNOWN');
    const again = await charge(card, key);
    expect(again.status).toBe(201);
    expect(again.body.status).toBe('authorizeSuccessful');
    const sent = seenFor(again.body.id);
    expect(sent.map((entry) => entry.dropped === true)).toEqual([true, true, true, false]);
    expect(new Set(sent.map((entry) => entry.idempotencyKey))).toEqual(new Set([`${again.body.id}:charge:1`]));
  }, 60_000);

  it('other methods are not offered through Adyen (the wallets and PayPal are the sandbox’s stand-ins)', async () => {
    const session = await createSession(gateway, { paymentMethods: ['card', 'payPal'] });
    const answer = await authorize(session, {
      amount: session.amount,
      paymentComposition: [{ paymentMethodCode: 'payPal', integrationType: 'api' }],
    });
    expect(answer.status).toBe(422);
    expect((answer.body as unknown as { code: string }).code).toBe('PAYMENT_METHOD_NOT_ENABLED');
    const token = await tokenize(session, ADYEN_TEST_CARD);
    const instrument = await saveInstrument(session, token.body.token);
    expect((await authorize(session, cardAuthorizeBody(session, instrument.id))).body.status).toBe('authorizeSuccessful');
  });
});

describe('an abandoned 3-D Secure challenge', () => {
  it('expires and is cancelled at Adyen by pspReference', async () => {
    const short = await startGateway(adyenEnv(prism.url, { GATEWAY_CHALLENGE_TTL_SECONDS: '1' }));
    try {
      prism.plan('/payments', { prefer: 'example=card-3d-secure-redirect' });
      const { execution } = await payByCard(short, ADYEN_TEST_CARD);
      expect(execution.body.status).toBe('authorizePending');
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      const read = await call<Execution>(`${short.url}/merchant/v1/executions/${execution.body.id}`, { headers: merchantHeaders() });
      expect(read.body.status).toBe('authorizeFailed');
      expect(read.body.finalState?.errors[0]?.reason.code).toBe('payment_expired');
      const cancel = prism.seen.find((entry) => entry.idempotencyKey === `${execution.body.id}:cancel`);
      // card-3d-secure-redirect's pspReference.
      expect(cancel).toMatchObject({
        path: '/payments/JLCMPCQ8HXSKGK82/cancels',
        status: 201,
        body: { merchantAccount: MERCHANT_ACCOUNT },
      });
      expect(prism.invalid()).toEqual([]);
    } finally {
      await short.close();
    }
  });
});
