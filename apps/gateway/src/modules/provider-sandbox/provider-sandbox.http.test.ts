import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Execution, SdkInitPayload } from '@roots/contracts/gateway';
import {
  authorize,
  bearer,
  call,
  createSession,
  googlePayToken,
  openerMessage,
  poll,
  postForm,
  RETURN_INFO,
  startGateway,
  type TestGateway,
} from '../../test/helpers';
import { mintGooglePayToken, verifyGooglePayToken } from '../wallet-tokens/google-pay-token';

const SHOP = 'https://shop.example';
let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startGateway({ GATEWAY_MERCHANT_ORIGINS: `${SHOP},http://127.0.0.1:3000` });
});
afterAll(async () => gateway.close());

const googlePayItem = (paymentToken?: string) => ({
  paymentMethodCode: 'googlePay',
  integrationType: 'api' as const,
  storeInstrument: false,
  ...(paymentToken ? { paymentInstrumentData: { paymentToken, billingAddress: { country: { code: 'US' }, postalCode: '10001' } } } : {}),
});
const payWithGoogle = (session: SdkInitPayload, token?: string) =>
  authorize(session, { amount: session.amount, paymentComposition: [googlePayItem(token)], returnInfo: RETURN_INFO });

describe('Google-type wallet stand-in', () => {
  it('serves pay.js with the PaymentsClient surface', async () => {
    const script = await call(`${gateway.url}/sandbox/google-pay/pay.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/text\/javascript/);
    for (const name of ['PaymentsClient', 'isReadyToPay', 'createButton', 'loadPaymentData']) expect(script.text).toContain(name);
  });

  it('the sheet lists the wallet cards for an allowed origin and this gateway only', async () => {
    const query = (origin: string, merchant = 'roots-sandbox') =>
      `${gateway.url}/sandbox/google-pay/sheet?${new URLSearchParams({ origin, gatewayMerchantId: merchant, totalPrice: '24.99', currencyCode: 'USD' })}`;
    const sheet = await call(query(SHOP));
    expect(sheet.status).toBe(200);
    expect(sheet.text).toContain('Visa •••• 4242');
    expect(sheet.text).toContain('24.99 USD');
    expect((await call(query('https://evil.example'))).status).toBe(403);
    expect((await call(query(SHOP, 'someone-else'))).status).toBe(400);
  });

  it('picking a card answers API 2.0 PaymentData with a signed token, to the opener at its origin only', async () => {
    const answer = await postForm(`${gateway.url}/sandbox/google-pay/sheet`, {
      origin: SHOP,
      gatewayMerchantId: 'roots-sandbox',
      billingAddressRequired: '1',
      card: 'visa-4242',
      action: 'pay',
    });
    expect(answer.text).toContain(`"targetOrigin":"${SHOP}"`);
    const message = openerMessage<{ type: string; paymentData: Record<string, unknown> }>(answer.text);
    expect(message).toMatchObject({
      type: 'roots-sandbox:google-pay',
      paymentData: {
        apiVersion: 2,
        apiVersionMinor: 0,
        paymentMethodData: {
          type: 'CARD',
          description: 'Visa •••• 4242',
          info: { cardNetwork: 'VISA', cardDetails: '4242', billingAddress: { countryCode: 'US', postalCode: '10001' } },
          tokenizationData: { type: 'PAYMENT_GATEWAY' },
        },
      },
    });
    const cancelled = await postForm(`${gateway.url}/sandbox/google-pay/sheet`, {
      origin: SHOP,
      gatewayMerchantId: 'roots-sandbox',
      action: 'cancel',
    });
    expect(openerMessage(cancelled.text)).toEqual({ type: 'roots-sandbox:google-pay', cancelled: true });
  });

  it.each([
    ['visa-4242', 'authorizeSuccessful'],
    ['mastercard-3220', 'authorizePending'],
    ['visa-0002', 'authorizeFailed'],
  ])('a token of %s authorizes to %s', async (card, status) => {
    const session = await createSession(gateway);
    const paid = await payWithGoogle(session, await googlePayToken(gateway, card));
    expect(paid.status).toBe(200);
    expect(paid.body.status).toBe(status);
    if (status === 'authorizePending') expect(paid.body.links.threeDS?.href).toContain('/3ds/');
    if (status === 'authorizeFailed') expect(paid.body.finalState?.errors[0]?.reason.result).toBe('Your card was declined.');
  });

  it('refuses a forged, foreign or expired token before the execution changes', async () => {
    const session = await createSession(gateway);
    const good = JSON.parse(await googlePayToken(gateway, 'visa-4242')) as { signedMessage: string; signature: string };
    const forged = JSON.stringify({ ...good, signedMessage: good.signedMessage.replace('visa-4242', 'visa-0002') });
    const foreign = mintGooglePayToken({
      cardId: 'visa-4242',
      gatewayMerchantId: 'roots-sandbox',
      secret: 'another-secret-another-secret-xx',
    });
    for (const token of [forged, foreign, 'token-3ds']) {
      const refused = await payWithGoogle(session, token);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: 'VALIDATION_ERROR' });
    }
    expect((await poll(session)).status).toBe('created');
    const later = new Date(Date.now() + 2 * 60 * 60_000);
    expect(
      verifyGooglePayToken(foreign, { gatewayMerchantId: 'roots-sandbox', secret: 'another-secret-another-secret-xx', now: later }),
    ).toEqual({
      ok: false,
      reason: 'the token has expired',
    });
  });

  it('without a token at authorize, the confirm link takes it (and checks it first)', async () => {
    const session = await createSession(gateway);
    const started = await payWithGoogle(session);
    expect(started.body.status).toBe('confirmRequested');
    const confirm = started.body.links.confirm!;
    expect(confirm.action.type).toBe('googlePayPaymentData');
    const refused = await call(confirm.href, { headers: bearer(session), json: { data: { paymentToken: 'token-3ds' } } });
    expect(refused.status).toBe(400);
    expect((await poll(session)).status).toBe('confirmRequested');
    const done = await call<Execution>(confirm.href, {
      headers: bearer(session),
      json: { data: { paymentToken: await googlePayToken(gateway, 'mastercard-3220') } },
    });
    expect(done.body.status).toBe('authorizePending');
    expect(done.body.links.threeDS).toBeDefined();
  });
});

describe('PayPal stand-in', () => {
  const sdk = (query: Record<string, string>) => call(`${gateway.url}/sandbox/paypal/sdk/js?${new URLSearchParams(query)}`);
  const payPal = (session: SdkInitPayload, storeInstrument: boolean) =>
    authorize(session, {
      amount: session.amount,
      paymentComposition: [
        {
          paymentMethodCode: 'payPal',
          integrationType: 'api',
          storeInstrument,
          paymentInstrumentData: { providerData: { riskSessionCorrelationId: 'cmid-1' } },
        },
      ],
      returnInfo: RETURN_INFO,
    });
  const checkout = (token: string, origin = SHOP) =>
    call(`${gateway.url}/sandbox/paypal/checkout?${new URLSearchParams({ token, origin })}`);
  const decide = (token: string, action: 'approve' | 'cancel', origin = SHOP) =>
    postForm(`${gateway.url}/sandbox/paypal/checkout`, { token, origin, action });

  it('serves the SDK script for the sandbox client id, with the query fixed into it', async () => {
    const order = await sdk({
      'client-id': 'sb-roots-sandbox',
      intent: 'capture',
      currency: 'USD',
      components: 'buttons,funding-eligibility',
    });
    expect(order.status).toBe(200);
    expect(order.text).toContain('"intent":"capture","vault":false');
    const agreement = await sdk({ 'client-id': 'sb-roots-sandbox', intent: 'tokenize', vault: 'true', currency: 'USD' });
    expect(agreement.text).toContain('"intent":"tokenize","vault":true');
    expect((await sdk({ 'client-id': 'someone-else' })).status).toBe(400);
    expect((await sdk({ 'client-id': 'sb-roots-sandbox', intent: 'capture', vault: 'true' })).status).toBe(400);
  });

  it('an order: confirm is refused until the buyer approves on the PayPal page, then the payment succeeds', async () => {
    const session = await createSession(gateway);
    const started = await payPal(session, false);
    expect(started.body.status).toBe('confirmRequested');
    const confirm = started.body.links.confirm!;
    const orderId = confirm.action.parameters.orderId!;
    expect(confirm.action.parameters.tokenId).toBeUndefined();
    const early = await call(confirm.href, { headers: bearer(session), json: { data: { orderId, riskSessionCorrelationId: 'cmid-1' } } });
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ code: 'INVALID_STATE' });

    const page = await checkout(orderId);
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-kind="order"');
    expect(page.text).toContain('Pay Roots 24.99 USD.');
    const approved = await decide(orderId, 'approve');
    expect(approved.text).toContain(`"targetOrigin":"${SHOP}"`);
    expect(openerMessage(approved.text)).toMatchObject({
      type: 'roots-sandbox:paypal',
      token: orderId,
      outcome: 'approved',
      orderId,
      payerId: expect.stringMatching(/^payer_/),
    });

    const done = await call<Execution>(confirm.href, {
      headers: bearer(session),
      json: { data: { orderId, riskSessionCorrelationId: 'cmid-1' } },
    });
    expect(done.body).toMatchObject({ status: 'authorizeSuccessful', paymentMethodCode: 'payPal' });
    expect((await checkout(orderId)).status).toBe(404);
  });

  it('a billing agreement (storing): approved by its token, confirmed with the matching tokenId', async () => {
    const session = await createSession(gateway);
    const started = await payPal(session, true);
    const confirm = started.body.links.confirm!;
    const { orderId, tokenId } = confirm.action.parameters as { orderId: string; tokenId: string };
    expect(tokenId).toMatch(/^tok_/);
    const page = await checkout(tokenId);
    expect(page.text).toContain('data-kind="agreement"');
    expect(page.text).toContain('billing agreement');
    expect(openerMessage(page.text)).toBeUndefined();
    expect(openerMessage((await decide(tokenId, 'approve')).text)).toMatchObject({ outcome: 'approved', token: tokenId, orderId });
    const wrong = await call(confirm.href, { headers: bearer(session), json: { data: { orderId, tokenId: 'tok_other' } } });
    expect(wrong.status).toBe(400);
    const done = await call<Execution>(confirm.href, {
      headers: bearer(session),
      json: { data: { orderId, tokenId, riskSessionCorrelationId: 'cmid-1' } },
    });
    expect(done.body.status).toBe('authorizeSuccessful');
  });

  it('cancel on the page tells the opener; the SDK then cancels through confirm and the execution fails', async () => {
    const session = await createSession(gateway);
    const started = await payPal(session, false);
    const confirm = started.body.links.confirm!;
    const orderId = confirm.action.parameters.orderId!;
    expect(openerMessage((await decide(orderId, 'cancel')).text)).toMatchObject({ outcome: 'cancelled', token: orderId });
    const cancelled = await call<Execution>(confirm.href, { headers: bearer(session), json: { data: { orderId, cancelled: true } } });
    expect(cancelled.body.status).toBe('authorizeFailed');
    expect(cancelled.body.finalState?.errors[0]?.reason.result).toBe('The payment was canceled.');
  });

  it('the pages answer only allowed merchant origins and known orders', async () => {
    expect((await checkout('ord_unknown')).status).toBe(404);
    const session = await createSession(gateway);
    const orderId = (await payPal(session, false)).body.links.confirm!.action.parameters.orderId!;
    expect((await checkout(orderId, 'https://evil.example')).status).toBe(403);
    expect((await decide(orderId, 'approve', 'https://evil.example')).status).toBe(403);
    expect((await checkout(orderId, 'not an origin')).status).toBe(400);
  });
});
