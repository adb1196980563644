import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Execution, SdkInitPayload, StoredInstrument } from '@roots/contracts/gateway';
import { GATEWAY_HEADERS, GATEWAY_WINDOW_MESSAGE_TYPE } from '@roots/contracts/gateway';
import { DEV_DEFAULT_SECRETS } from './config/env';
import { executions } from './db/schema';
import { TEST_CARDS } from './modules/test-cards/test-cards';
import { CLIENT_TOKEN_AUDIENCE } from './modules/sessions/bearer-token';
import {
  authorize,
  bearer,
  call,
  cardAuthorizeBody,
  createSession,
  googlePayToken,
  merchantHeaders,
  payByCard,
  poll,
  postForm,
  RETURN_INFO,
  saveInstrument,
  startGateway,
  testId,
  tokenize,
  type TestGateway,
} from './test/helpers';

let gateway: TestGateway;
const SLOW_POLLS = 3;

beforeAll(async () => {
  gateway = await startGateway({ GATEWAY_SLOW_AUTH_POLLS: String(SLOW_POLLS) });
});
afterAll(async () => gateway.close());

/** A `PKPaymentToken` as Apple Pay on the Web hands it to `onpaymentauthorized` (payload shortened). */
const APPLE_PAY_TOKEN = {
  paymentData: {
    version: 'EC_v1',
    data: 'ZW5jcnlwdGVkIHBheW1lbnQgZGF0YQ==',
    signature: 'c2lnbmF0dXJl',
    header: { ephemeralPublicKey: 'ZXBoZW1lcmFs', publicKeyHash: 'aGFzaA==', transactionId: 'a1b2c3d4e5f6' },
  },
  paymentMethod: { displayName: 'Visa 0224', network: 'Visa', type: 'debit' },
  transactionIdentifier: 'A1B2C3D4E5F6',
};

describe('test cards over HTTP', () => {
  it.each(TEST_CARDS.map((card) => [card.number, card] as const))('%s behaves as documented', async (_number, card) => {
    const { execution } = await payByCard(gateway, { number: card.number });
    expect(execution.status).toBe(200);
    const body = execution.body;
    switch (card.scenario.kind) {
      case 'success':
      case 'frictionless':
        expect(body.status).toBe('authorizeSuccessful');
        expect(body.finalState).toEqual({ code: 'authorizeSuccessful', errors: [] });
        expect(body.instrument?.network).toBe(card.network);
        break;
      case 'decline':
        expect(body.status).toBe('authorizeFailed');
        expect(body.finalState?.errors[0]?.reason.code).toBe(card.scenario.code);
        expect(body.finalState?.errors[0]?.reason.result).toEqual(expect.any(String));
        break;
      case 'challenge':
        expect(body.status).toBe('authorizePending');
        expect(body.links.threeDS?.href).toMatch(new RegExp(`^${gateway.url}/3ds/`));
        expect(body.links.threeDS?.messageOrigin).toBe(gateway.url);
        break;
      case 'slow':
        expect(body.status).toBe('authorizeRequested');
        break;
      case 'dispute':
        expect(body.status).toBe('authorizeSuccessful');
        expect(body.dispute).toMatchObject({ reason: card.scenario.reason, status: 'needs_response', amount: body.amount });
        break;
    }
  });

  it('keeps a slow authorization in authorizeRequested for N polls, then succeeds', async () => {
    const { session } = await payByCard(gateway, { number: '4000000000000036' });
    const statuses: string[] = [];
    for (let i = 0; i < SLOW_POLLS; i += 1) statuses.push((await poll(session)).status);
    expect(statuses).toEqual(['authorizeRequested', 'authorizeRequested', 'authorizeSuccessful']);
    expect((await poll(session)).status).toBe('authorizeSuccessful');
  });

  it('applies cardholder-name and amount triggers', async () => {
    const byName = await payByCard(gateway, { number: '4242424242424242', name: 'Insufficient Funds' });
    expect(byName.execution.body.finalState?.errors[0]?.reason.code).toBe('insufficient_funds');
    const byAmount = await payByCard(gateway, { number: '4242424242424242' }, { amount: 250_000 });
    expect(byAmount.execution.body.finalState?.errors[0]?.reason.code).toBe('card_declined');
    const challenge = await payByCard(gateway, { number: '5555555555554444', name: 'challenge' });
    expect(challenge.execution.body.status).toBe('authorizePending');
  });

  it('lets the shopper retry after a decline on the same execution', async () => {
    const { session, execution } = await payByCard(gateway, { number: '4000000000000002' });
    expect(execution.body.status).toBe('authorizeFailed');
    const token = await tokenize(session, { number: '4242424242424242' });
    const instrument = await saveInstrument(session, token.body.token);
    const retry = await authorize(session, cardAuthorizeBody(session, instrument.id));
    expect(retry.body.status).toBe('authorizeSuccessful');
    const again = await authorize(session, cardAuthorizeBody(session, instrument.id));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'INVALID_STATE' });
  });
});

describe('refused authorizations leave the execution untouched', () => {
  it('a refused authorize (unknown instrument) keeps the execution created; a valid one then succeeds', async () => {
    const session = await createSession(gateway);
    const refused = await authorize(session, cardAuthorizeBody(session, 'ins_unknown'));
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'INSTRUMENT_NOT_USABLE' });
    expect((await poll(session)).status).toBe('created');
    const token = await tokenize(session, { number: '4242424242424242' });
    const instrument = await saveInstrument(session, token.body.token);
    expect((await authorize(session, cardAuthorizeBody(session, instrument.id))).body.status).toBe('authorizeSuccessful');
  });
});

describe('idempotency', () => {
  it('replays the first answer for a repeated key and refuses the key with another body', async () => {
    const session = await createSession(gateway);
    const token = await tokenize(session, { number: '4242424242424242' });
    const instrument = await saveInstrument(session, token.body.token);
    const body = cardAuthorizeBody(session, instrument.id);
    const first = await authorize(session, body, 'pay-once-1');
    const second = await authorize(session, body, 'pay-once-1');
    expect(second.status).toBe(first.status);
    expect(second.text).toBe(first.text);
    expect(second.headers.get(GATEWAY_HEADERS.idempotentReplayed)).toBe('true');
    const other = await authorize(session, { ...body, meta: { risk: { sessionId: 'other' } } }, 'pay-once-1');
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
  });

  it('requires a key on every mutating call', async () => {
    const session = await createSession(gateway);
    const missing = await call(session.links.authorize, {
      headers: bearer(session),
      json: cardAuthorizeBody(session, 'ins_x'),
      idempotencyKey: false,
    });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'IDEMPOTENCY_KEY_REQUIRED' });
    const merchant = await call(`${gateway.url}/merchant/v1/sessions`, {
      headers: merchantHeaders(),
      json: { amount: { value: 100, currency: 'USD' }, holderReference: 'h' },
      idempotencyKey: false,
    });
    expect(merchant.body).toMatchObject({ code: 'IDEMPOTENCY_KEY_REQUIRED' });
  });

  it('scopes keys per credential: the same key in two sessions is two requests', async () => {
    const a = await createSession(gateway);
    const b = await createSession(gateway);
    const ta = await tokenize(a, { number: '4242424242424242' }).then((r) => r.body.token);
    const tb = await call(b.links.tokenize, {
      headers: bearer(b),
      idempotencyKey: 'shared',
      json: { cardNumber: '4242424242424242', expiryMonth: 1, expiryYear: 2035, cvv: '123' },
    });
    expect(ta).toBeDefined();
    const tb2 = await call(b.links.tokenize, {
      headers: bearer(b),
      idempotencyKey: 'shared',
      json: { cardNumber: '4242424242424242', expiryMonth: 1, expiryYear: 2035, cvv: '123' },
    });
    const ta2 = await call(a.links.tokenize, {
      headers: bearer(a),
      idempotencyKey: 'shared',
      json: { cardNumber: '4242424242424242', expiryMonth: 1, expiryYear: 2035, cvv: '123' },
    });
    expect(tb2.text).toBe(tb.text);
    expect(ta2.status).toBe(201);
    expect(ta2.text).not.toBe(tb.text);
  });
});

describe('vault tokens', () => {
  it("answers 'Invalid token' for a vault token that was used, expired or never existed (checkout-spec §8)", async () => {
    const session = await createSession(gateway);
    const { token } = (await tokenize(session, { number: '4242424242424242' })).body;
    await saveInstrument(session, token);
    const body = (encryptedData: string) => ({
      holderReference: session.holderReference,
      paymentMethod: 'card',
      storeInstrument: false,
      futureUsage: 'CardOnFile',
      data: { encryptedData, vaultProviderConfigId: session.vaultProviderConfigId },
    });
    for (const encryptedData of [token, 'vt_never_issued']) {
      const again = await call(session.links.saveInstrument, { headers: bearer(session), json: body(encryptedData) });
      expect(again.status).toBe(404);
      expect(again.body).toMatchObject({ error: 'Invalid token' });
    }
  });
});

describe('bearer tokens', () => {
  const sign = (secret: string, exp: number, sub = 'ses_x') =>
    new SignJWT({ holder: 'h' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(sub)
      .setAudience(CLIENT_TOKEN_AUDIENCE)
      .setIssuer('x')
      .setIssuedAt(exp - 60)
      .setExpirationTime(exp)
      .sign(new TextEncoder().encode(secret));

  it('refreshes an expired token of the same session through the merchant API; the new one pays the same execution', async () => {
    const session = await createSession(gateway);
    const now = Math.floor(Date.now() / 1000);
    const expired = await sign(DEV_DEFAULT_SECRETS.GATEWAY_JWT_SECRET, now - 30, session.sessionId);
    // The test signer's holder is 'h': the session's holder must match, so sign one with the real holder.
    const expiredOfSession = await new SignJWT({ holder: session.holderReference })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(session.sessionId)
      .setAudience(CLIENT_TOKEN_AUDIENCE)
      .setIssuer('x')
      .setIssuedAt(now - 90)
      .setExpirationTime(now - 30)
      .sign(new TextEncoder().encode(DEV_DEFAULT_SECRETS.GATEWAY_JWT_SECRET));
    expect((await call(session.links.execution, { headers: { authorization: `Bearer ${expiredOfSession}` } })).status).toBe(401);
    const refreshed = await call<{ sessionId: string; bearerToken: string; expiresAt: string }>(
      `${gateway.url}/merchant/v1/sessions/token`,
      {
        headers: merchantHeaders(),
        json: { bearerToken: expiredOfSession },
      },
    );
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.sessionId).toBe(session.sessionId);
    expect(Date.parse(refreshed.body.expiresAt)).toBeGreaterThan(Date.now());
    const renewed = { ...session, bearerToken: refreshed.body.bearerToken };
    const execution = await call<Execution>(session.links.execution, { headers: bearer(renewed) });
    expect(execution.status).toBe(200);
    expect(execution.body.id).toBe(session.executionId);
    const { token } = (await tokenize(renewed, { number: '4242424242424242' })).body;
    const instrument = await saveInstrument(renewed, token);
    expect((await authorize(renewed, cardAuthorizeBody(renewed, instrument.id))).status).toBe(200);
    await expect.poll(async () => (await poll(renewed)).status, { timeout: 10_000 }).toBe('authorizeSuccessful');

    // A token of another holder for this session, a forged one, or one past the refresh window: refused.
    expect(
      (await call(`${gateway.url}/merchant/v1/sessions/token`, { headers: merchantHeaders(), json: { bearerToken: expired } })).status,
    ).toBe(401);
    const forged = await sign('another-secret-another-secret-another-secret', now - 30, session.sessionId);
    expect(
      (await call(`${gateway.url}/merchant/v1/sessions/token`, { headers: merchantHeaders(), json: { bearerToken: forged } })).status,
    ).toBe(401);
    const ancient = await sign(DEV_DEFAULT_SECRETS.GATEWAY_JWT_SECRET, now - 2 * 24 * 3600, session.sessionId);
    expect(
      (await call(`${gateway.url}/merchant/v1/sessions/token`, { headers: merchantHeaders(), json: { bearerToken: ancient } })).status,
    ).toBe(401);
    // Only the merchant's server may refresh.
    expect((await call(`${gateway.url}/merchant/v1/sessions/token`, { json: { bearerToken: expiredOfSession } })).status).toBe(401);
  });

  it('carries an expiry claim matching expiresAt', async () => {
    const session = await createSession(gateway);
    const [, payload] = session.bearerToken.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as { exp: number; sub: string };
    expect(claims.exp).toBe(Math.floor(Date.parse(session.expiresAt) / 1000));
    expect(claims.sub).toBe(session.sessionId);
  });

  it('answers 401 TOKEN_EXPIRED for an expired token and 401 UNAUTHORIZED for forged or missing ones', async () => {
    const session = await createSession(gateway);
    const expired = await sign(DEV_DEFAULT_SECRETS.GATEWAY_JWT_SECRET, Math.floor(Date.now() / 1000) - 10, session.sessionId);
    const forged = await sign('another-secret-another-secret-another-secret', Math.floor(Date.now() / 1000) + 600, session.sessionId);
    const expiredAnswer = await call(session.links.execution, { headers: { authorization: `Bearer ${expired}` } });
    expect(expiredAnswer.status).toBe(401);
    expect(expiredAnswer.body).toMatchObject({ code: 'TOKEN_EXPIRED', error: 'API token is not valid or expired.' });
    const forgedAnswer = await call(session.links.execution, { headers: { authorization: `Bearer ${forged}` } });
    expect(forgedAnswer.status).toBe(401);
    expect(forgedAnswer.body).toMatchObject({ code: 'UNAUTHORIZED' });
    expect((await call(session.links.execution)).status).toBe(401);
    const wrongMerchant = await call(`${gateway.url}/merchant/v1/executions/${session.executionId}`, {
      headers: { [GATEWAY_HEADERS.merchantKey]: 'nope-nope-nope-nope' },
    });
    expect(wrongMerchant.status).toBe(401);
  });

  it('forbids another session’s execution (403)', async () => {
    const a = await createSession(gateway);
    const b = await createSession(gateway);
    const answer = await call(a.links.execution, { headers: bearer(b) });
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe('3-D Secure', () => {
  async function challenge() {
    const { session, execution } = await payByCard(gateway, { number: '4000000000003220' });
    const href = execution.body.links.threeDS?.href ?? '';
    const page = await call(href);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const code = testId(page.text, 'otp-hint') ?? '';
    expect(code).toMatch(/^\d{6}$/);
    const t = new URL(href).searchParams.get('t') ?? '';
    const submit = (fields: Record<string, string>) =>
      call(`${gateway.url}/3ds/${execution.body.id}`, {
        method: 'POST',
        body: new URLSearchParams({ t, ...fields }),
        idempotencyKey: false,
      });
    return { session, code, submit };
  }

  it('passes with the one-time code and notifies the opener', async () => {
    const { session, code, submit } = await challenge();
    const wrong = await submit({ action: 'submit', code: code === '000000' ? '111111' : '000000' });
    expect(wrong.text).toContain('Wrong code');
    expect((await poll(session)).status).toBe('authorizePending');
    const done = await submit({ action: 'submit', code });
    expect(done.status).toBe(200);
    expect(done.text).toContain(GATEWAY_WINDOW_MESSAGE_TYPE);
    expect(done.text).toContain('"source":"threeDS"');
    expect(done.text).toContain('"targets":["http://127.0.0.1:3000"]');
    expect(done.text).not.toContain('"*"');
    expect(done.headers.get('content-security-policy')).toContain('frame-ancestors http://127.0.0.1:3000');
    expect(done.headers.get('content-security-policy')).toContain("script-src 'nonce-");
    const final = await poll(session);
    expect(final.status).toBe('authorizeSuccessful');
  });

  it('fails with the fail button', async () => {
    const { session, submit } = await challenge();
    await submit({ action: 'fail' });
    const final = await poll(session);
    expect(final.status).toBe('authorizeFailed');
    expect(final.finalState?.errors[0]?.reason).toMatchObject({ code: 'authentication_failed', type: 'AUTHENTICATION_ERROR' });
  });

  it('fails after three wrong codes, and declines after a passed challenge on 4000008400001629', async () => {
    const { session, submit } = await challenge();
    for (let i = 0; i < 3; i += 1) await submit({ action: 'submit', code: 'x' });
    expect((await poll(session)).status).toBe('authorizeFailed');
    const declined = await payByCard(gateway, { number: '4000008400001629' });
    const href = declined.execution.body.links.threeDS?.href ?? '';
    const code = testId((await call(href)).text, 'otp-hint') ?? '';
    await call(`${gateway.url}/3ds/${declined.execution.body.id}`, {
      method: 'POST',
      body: new URLSearchParams({ t: new URL(href).searchParams.get('t') ?? '', action: 'submit', code }),
    });
    expect((await poll(declined.session)).finalState?.errors[0]?.reason.code).toBe('card_declined');
  });

  it('refuses a page link with a wrong token', async () => {
    const { session } = await payByCard(gateway, { number: '4000000000003220' });
    const answer = await call(`${gateway.url}/3ds/${session.executionId}?t=forged`);
    expect(answer.status).toBe(403);
  });
});

describe('redirect methods', () => {
  const redirectBody = (session: SdkInitPayload, code: string) => ({
    amount: session.amount,
    paymentComposition: [{ paymentMethodCode: code, integrationType: 'hpp' as const }],
    returnInfo: RETURN_INFO,
  });

  it('generic redirect: pending with a hosted page; cancel returns to the cancel URL', async () => {
    const session = await createSession(gateway);
    const pending = await authorize(session, redirectBody(session, 'genericRedirect'));
    expect(pending.body.status).toBe('authorizePending');
    const href = pending.body.links.redirect ?? '';
    expect(href).toMatch(new RegExp(`^${gateway.url}/hpp/`));
    expect((await call(href)).text).toContain('Pay with Roots Pay');
    const done = await call(`${gateway.url}/hpp/${session.executionId}`, {
      method: 'POST',
      body: new URLSearchParams({ t: new URL(href).searchParams.get('t') ?? '', outcome: 'cancel' }),
    });
    expect(done.text).toContain(`${RETURN_INFO.cancel}?executionId=${session.executionId}`);
    expect((await poll(session)).finalState?.errors[0]?.reason.code).toBe('payment_canceled');
  });

  it('pix: QR code, expiry and simulated payment', async () => {
    const session = await createSession(gateway);
    const pending = await authorize(session, redirectBody(session, 'pix'));
    const href = pending.body.links.redirect ?? '';
    expect(href).toMatch(new RegExp(`^${gateway.url}/pix/`));
    const page = await call(href);
    expect(page.text).toContain('<svg');
    expect(testId(page.text, 'pix-code')).toMatch(/^000201.*6304[0-9A-F]{4}$/);
    expect(Date.parse(page.text.match(/datetime="([^"]+)"/)?.[1] ?? '')).toBeGreaterThan(Date.now());
    await call(`${gateway.url}/pix/${session.executionId}`, {
      method: 'POST',
      body: new URLSearchParams({ t: new URL(href).searchParams.get('t') ?? '', outcome: 'success' }),
    });
    expect((await poll(session)).status).toBe('authorizeSuccessful');
  });
});

describe('pix expiry', () => {
  it('fails a pix payment polled after its expiry with payment_expired', async () => {
    const session = await createSession(gateway);
    await authorize(session, {
      amount: session.amount,
      paymentComposition: [{ paymentMethodCode: 'pix', integrationType: 'hpp' }],
      returnInfo: RETURN_INFO,
    });
    // Move the expiry into the past instead of waiting 750 s.
    const { db } = gateway.app.gateway.database;
    await db
      .update(executions)
      .set({ plannedOutcome: { expiresAt: new Date(Date.now() - 1_000).toISOString() } })
      .where(eq(executions.id, session.executionId));
    const expired = await poll(session);
    expect(expired.status).toBe('authorizeFailed');
    expect(expired.finalState?.errors[0]?.reason.code).toBe('payment_expired');
  });
});

describe('wallets', () => {
  it('Apple-type: session, merchant validation (client and merchant API) and authorize', async () => {
    const session = await createSession(gateway, { paymentMethods: ['card', 'applePay'] });
    const applePay = session.paymentMethods.find((method) => method.code === 'applePay');
    expect(applePay?.applePay?.supportedNetworks).toEqual(['visa', 'masterCard', 'amex', 'discover']);
    const sdkSession = await call<{ version: number; paymentRequest: { total: { amount: string } } }>(session.links.applePaySession, {
      headers: bearer(session),
      json: {
        integrationType: 'api',
        paymentMethodCode: 'applePay',
        amount: session.amount,
        meta: { sessionURL: 'https://apple-pay-gateway.apple.com/paymentservices/startSession' },
        clientContext: { host: 'roots.example' },
      },
    });
    expect(sdkSession.status).toBe(200);
    expect(sdkSession.body.version).toBe(3);
    expect(sdkSession.body.paymentRequest.total.amount).toBe('24.99');
    const validationBody = {
      requestUrl: 'https://roots.example/api/apple-pay/validate-merchant',
      sessionUrl: 'https://apple-pay-gateway.apple.com/paymentservices/startSession',
      clientDomain: 'roots.example',
    };
    const viaMerchant = await call<{ data: { domainName: string } }>(`${gateway.url}/merchant/v1/wallets/apple-pay/merchant-validation`, {
      headers: merchantHeaders(),
      json: validationBody,
    });
    expect(viaMerchant.body.data.domainName).toBe('roots.example');
    const paid = await authorize(session, {
      amount: session.amount,
      paymentComposition: [
        {
          paymentMethodCode: 'applePay',
          integrationType: 'api',
          storeInstrument: false,
          paymentInstrumentData: {
            paymentToken: { paymentData: 'opaque' },
            billingAddress: { country: { code: 'US' }, postalCode: '10001' },
          },
        },
      ],
    });
    expect(paid.body.status).toBe('authorizeSuccessful');
  });

  it('Apple-type with storeInstrument: the wallet token becomes a network-token instrument that renews and pays add-ons', async () => {
    const holderReference = `holder-apple-${randomUUID()}`;
    const session = await createSession(gateway, { holderReference });
    const appleItem = (paymentToken: unknown) => ({
      paymentMethodCode: 'applePay',
      integrationType: 'api' as const,
      storeInstrument: true,
      paymentInstrumentData: { paymentToken, billingAddress: { first_name: 'Ada', last_name: 'Lovelace', country: { code: 'GB' } } },
    });
    // Not a PKPaymentToken: nothing a provider could keep, refused before the execution changes.
    const refused = await authorize(session, { amount: session.amount, paymentComposition: [appleItem({ paymentData: 'opaque' })] });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'VALIDATION_ERROR' });
    const paid = await authorize(session, { amount: session.amount, paymentComposition: [appleItem(APPLE_PAY_TOKEN)] });
    expect(paid.body).toMatchObject({ status: 'authorizeSuccessful', instrument: { network: 'visa', last4: '0224', status: 'enabled' } });
    const instrumentId = paid.body.instrument?.id ?? '';
    // A real DPAN shape: the network's prefix, Luhn-valid, the shown last four.
    const verified = await call<Execution>(`${gateway.url}/merchant/v1/executions/${paid.body.id}`, { headers: merchantHeaders() });
    expect(verified.body.instrument).toMatchObject({ id: instrumentId, bin: expect.stringMatching(/^4\d{7}$/) });
    for (const key of ['renewal-apple-1', 'addon-apple-1']) {
      const charge = await call<Execution>(`${gateway.url}/merchant/v1/charges`, {
        headers: merchantHeaders(),
        json: { instrumentId, holderReference, amount: { value: 2499, currency: 'USD' }, orderReference: key },
        idempotencyKey: key,
      });
      expect(charge.status).toBe(201);
      expect(charge.body).toMatchObject({ status: 'authorizeSuccessful', merchantInitiated: true, instrument: { id: instrumentId } });
    }
    // Without storeInstrument the wallet payment keeps nothing.
    const once = await createSession(gateway);
    const oneOff = await authorize(once, {
      amount: once.amount,
      paymentComposition: [{ ...appleItem(APPLE_PAY_TOKEN), storeInstrument: false }],
    });
    expect(oneOff.body.status).toBe('authorizeSuccessful');
    expect(oneOff.body.instrument).toBeUndefined();
  });

  it('PayPal: authorize asks to confirm with an order id; confirm completes once the buyer approved', async () => {
    const session = await createSession(gateway);
    const started = await authorize(session, {
      amount: session.amount,
      paymentComposition: [{ paymentMethodCode: 'payPal', integrationType: 'api', storeInstrument: true }],
    });
    expect(started.body.status).toBe('confirmRequested');
    const confirm = started.body.links.confirm;
    expect(confirm?.action.parameters.orderId).toMatch(/^ord_/);
    expect(confirm?.action.parameters.tokenId).toMatch(/^tok_/);
    // The buyer approves the billing agreement on the PayPal (sandbox) page first.
    await postForm(`${gateway.url}/sandbox/paypal/checkout`, {
      token: confirm?.action.parameters.tokenId ?? '',
      origin: 'http://127.0.0.1:3000',
      action: 'approve',
    });
    const done = await call<Execution>(confirm?.href ?? '', {
      headers: bearer(session),
      json: {
        data: {
          orderId: confirm?.action.parameters.orderId,
          tokenId: confirm?.action.parameters.tokenId,
          riskSessionCorrelationId: 'corr-1',
        },
      },
    });
    expect(done.body.status).toBe('authorizeSuccessful');
  });

  it('Google-type: payment data request, then a 3-D Secure wallet card asks for a challenge', async () => {
    const session = await createSession(gateway);
    const request = await call<{ apiVersion: number; transactionInfo: { totalPriceStatus: string } }>(
      `${gateway.url}/v1/wallets/google-pay/payment-data-request`,
      {
        headers: bearer(session),
        method: 'POST',
      },
    );
    expect(request.body).toMatchObject({ apiVersion: 2, transactionInfo: { totalPriceStatus: 'FINAL' } });
    const started = await authorize(session, {
      amount: session.amount,
      paymentComposition: [{ paymentMethodCode: 'googlePay', integrationType: 'api', storeInstrument: false }],
    });
    expect(started.body.status).toBe('confirmRequested');
    const done = await call<Execution>(started.body.links.confirm?.href ?? '', {
      headers: bearer(session),
      json: { data: { paymentToken: await googlePayToken(gateway, 'mastercard-3220') } },
    });
    expect(done.body.status).toBe('authorizePending');
    expect(done.body.links.threeDS).toBeDefined();
  });
});

describe('merchant API', () => {
  it('verifies an execution, charges the stored instrument without the shopper, refunds', async () => {
    const holderReference = `holder-mit-${Date.now()}`;
    const { session, execution } = await payByCard(gateway, { number: '4242424242424242' }, { storeInstrument: true, holderReference });
    expect(execution.body.instrument?.status).toBe('enabled');
    const verified = await call<Execution>(`${gateway.url}/merchant/v1/executions/${session.executionId}`, { headers: merchantHeaders() });
    expect(verified.body).toMatchObject({ status: 'authorizeSuccessful', amount: { value: 2499, currency: 'USD' }, holderReference });

    const listed = await call<{ items: StoredInstrument[] }>(`${gateway.url}/merchant/v1/holders/${holderReference}/instruments`, {
      headers: merchantHeaders(),
    });
    expect(listed.body.items).toHaveLength(1);
    expect(listed.body.items[0]).toMatchObject({
      displayName: 'Visa •••• 4242',
      status: 'enabled',
      data: { network: 'visa', binLookup: { issuerCountry: { code: 'US' } } },
    });
    const viaClient = await call<{ items: StoredInstrument[] }>(session.links.instruments, { headers: bearer(session) });
    expect(viaClient.body.items.map((item) => item.id)).toEqual(listed.body.items.map((item) => item.id));

    const instrumentId = listed.body.items[0]?.id ?? '';
    const chargeBody = {
      instrumentId,
      holderReference,
      amount: { value: 2999, currency: 'USD' },
      reason: 'recurring',
      orderReference: 'renewal-1',
    };
    const charge = await call<Execution>(`${gateway.url}/merchant/v1/charges`, {
      headers: merchantHeaders(),
      json: chargeBody,
      idempotencyKey: 'renewal-1',
    });
    expect(charge.status).toBe(201);
    expect(charge.body).toMatchObject({ status: 'authorizeSuccessful', merchantInitiated: true, orderReference: 'renewal-1' });
    const replay = await call<Execution>(`${gateway.url}/merchant/v1/charges`, {
      headers: merchantHeaders(),
      json: chargeBody,
      idempotencyKey: 'renewal-1',
    });
    expect(replay.body.id).toBe(charge.body.id);

    const partial = await call<{ execution: Execution }>(`${gateway.url}/merchant/v1/executions/${charge.body.id}/refunds`, {
      headers: merchantHeaders(),
      json: { amount: { value: 1000, currency: 'USD' } },
    });
    expect(partial.status).toBe(201);
    expect(partial.body.execution.amountRefunded).toBe(1000);
    const rest = await call<{ execution: Execution }>(`${gateway.url}/merchant/v1/executions/${charge.body.id}/refunds`, {
      headers: merchantHeaders(),
      json: {},
    });
    expect(rest.body.execution.amountRefunded).toBe(2999);
    const tooMuch = await call(`${gateway.url}/merchant/v1/executions/${charge.body.id}/refunds`, { headers: merchantHeaders(), json: {} });
    expect(tooMuch.body).toMatchObject({ code: 'REFUND_NOT_ALLOWED' });
  });

  it('refuses merchant-initiated charges on transient or foreign instruments', async () => {
    const { instrument, session } = await payByCard(gateway, { number: '4242424242424242' });
    const transient = await call(`${gateway.url}/merchant/v1/charges`, {
      headers: merchantHeaders(),
      json: { instrumentId: instrument.id, holderReference: session.holderReference, amount: { value: 100, currency: 'USD' } },
    });
    expect(transient.status).toBe(422);
    expect(transient.body).toMatchObject({ code: 'INSTRUMENT_NOT_USABLE' });
  });

  it('declines a merchant-initiated charge on a declining card', async () => {
    const holderReference = `holder-decline-${Date.now()}`;
    const { instrument } = await payByCard(gateway, { number: '4242424242424242', name: 'x' }, { storeInstrument: true, holderReference });
    const declined = await call<Execution>(`${gateway.url}/merchant/v1/charges`, {
      headers: merchantHeaders(),
      json: { instrumentId: instrument.id, holderReference, amount: { value: 250_000, currency: 'USD' } },
    });
    expect(declined.body.status).toBe('authorizeFailed');
  });
});

describe('lookups, CORS and request ids', () => {
  it('looks up BINs (network and issuer country)', async () => {
    const session = await createSession(gateway);
    const lookup = (bin: string) => call(session.links.binLookup, { headers: bearer(session), json: { bin } });
    expect((await lookup('4000-0076-XXXX')).body).toEqual({ bin: '40000076', network: 'visa', issuerCountry: { code: 'BR' } });
    expect((await lookup('555555XX')).body).toMatchObject({ network: 'mastercard', issuerCountry: { code: 'US' } });
    expect((await lookup('12')).status).toBe(400);
  });

  it('serves the countries asset with caching headers', async () => {
    const answer = await call<
      Array<{ code: string; iso3: string; showPostalCode: boolean; postalCodeRegex?: string; timezones: string[] }>
    >(`${gateway.url}/assets/countries.json`);
    expect(answer.status).toBe(200);
    expect(answer.body.length).toBeGreaterThanOrEqual(249);
    const us = answer.body.find((country) => country.code === 'US');
    expect(us).toMatchObject({ iso3: 'USA', showPostalCode: true });
    expect(new RegExp(us?.postalCodeRegex ?? '').test('10001')).toBe(true);
    expect(us?.timezones).toContain('America/New_York');
    expect(answer.headers.get('cache-control')).toMatch(/max-age=\d+/);
    const etag = answer.headers.get('etag') ?? '';
    expect((await fetch(`${gateway.url}/assets/countries.json`, { headers: { 'if-none-match': etag } })).status).toBe(304);
  });

  it('lets only the gateway origin post to the vault', async () => {
    const session = await createSession(gateway);
    const card = { cardNumber: '4242424242424242', expiryMonth: '12', expiryYear: '34', cvv: '123' };
    const foreign = await call(session.links.tokenize, { headers: { ...bearer(session), origin: 'http://127.0.0.1:3000' }, json: card });
    expect(foreign.status).toBe(403);
    const preflight = await fetch(session.links.tokenize, {
      method: 'OPTIONS',
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const own = await call(session.links.tokenize, { headers: { ...bearer(session), origin: gateway.url }, json: card });
    expect(own.status).toBe(201);
    expect(own.headers.get('access-control-allow-origin')).toBe(gateway.url);
    const merchantPage = await fetch(session.links.execution, {
      method: 'OPTIONS',
      headers: { origin: 'http://127.0.0.1:3000', 'access-control-request-method': 'GET' },
    });
    expect(merchantPage.status).toBe(204);
    expect(merchantPage.headers.get('access-control-allow-headers')).toContain('idempotency-key');
  });

  it('answers every request with an x-request-id, echoing a well-formed incoming one', async () => {
    const answer = await call(`${gateway.url}/healthz`, { headers: { 'x-request-id': 'req-123' } });
    expect(answer.headers.get('x-request-id')).toBe('req-123');
    const error = await call<{ requestId: string }>(`${gateway.url}/v1/instruments`);
    expect(error.body.requestId).toBe(error.headers.get('x-request-id'));
  });
});

describe('bad bodies get a 4xx with a code, never a 500', () => {
  it.each([
    ['invalid JSON', { body: '{"cardNumber": "4242', headers: { 'content-type': 'application/json' } }],
    ['text body', { body: 'hello', headers: { 'content-type': 'text/plain' } }],
    ['empty object', { json: {} }],
    ['array', { json: [] }],
    ['Luhn failure', { json: { cardNumber: '4242424242424241', expiryMonth: '12', expiryYear: '34', cvv: '123' } }],
    ['unknown brand', { json: { cardNumber: '9999999999999995', expiryMonth: '12', expiryYear: '34', cvv: '123' } }],
    ['wrong length for the brand', { json: { cardNumber: '555555555555444', expiryMonth: '12', expiryYear: '34', cvv: '123' } }],
    ['expired', { json: { cardNumber: '4242424242424242', expiryMonth: '01', expiryYear: '2020', cvv: '123' } }],
    ['month 13', { json: { cardNumber: '4242424242424242', expiryMonth: '13', expiryYear: '34', cvv: '123' } }],
    ['short CVV', { json: { cardNumber: '4242424242424242', expiryMonth: '12', expiryYear: '34', cvv: '12' } }],
    ['amex 5-digit CVV', { json: { cardNumber: '378282246310005', expiryMonth: '12', expiryYear: '34', cvv: '12345' } }],
    ['letters', { json: { cardNumber: 'abcd', expiryMonth: 'x', expiryYear: 'y', cvv: 'z' } }],
    ['huge', { json: { cardNumber: '4'.repeat(100_000), expiryMonth: '1', expiryYear: '34', cvv: '1' } }],
  ])('vault tokenize: %s', async (_name, init) => {
    const session = await createSession(gateway);
    const answer = await call<{ code: string; error: string }>(session.links.tokenize, {
      method: 'POST',
      ...init,
      headers: { ...bearer(session), ...('headers' in init ? init.headers : {}) },
    });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(answer.body.code).toEqual(expect.any(String));
    expect(answer.text).not.toContain('4242424242424241');
  });

  it.each([
    ['authorize without composition', (s: SdkInitPayload) => [s.links.authorize, { amount: s.amount, paymentComposition: [] }]],
    [
      'authorize wrong amount',
      (s: SdkInitPayload) => [
        s.links.authorize,
        {
          amount: { value: 1, currency: 'USD' },
          paymentComposition: [{ paymentMethodCode: 'card', integrationType: 'api', paymentInstrumentId: 'x' }],
        },
      ],
    ],
    [
      'authorize unknown instrument',
      (s: SdkInitPayload) => [
        s.links.authorize,
        { amount: s.amount, paymentComposition: [{ paymentMethodCode: 'card', integrationType: 'api', paymentInstrumentId: 'ins_nope' }] },
      ],
    ],
    [
      'authorize card without instrument',
      (s: SdkInitPayload) => [
        s.links.authorize,
        { amount: s.amount, paymentComposition: [{ paymentMethodCode: 'card', integrationType: 'api' }] },
      ],
    ],
    [
      'authorize lowercase currency',
      (s: SdkInitPayload) => [s.links.authorize, { amount: { value: 1, currency: 'usd' }, paymentComposition: [] }],
    ],
    [
      'authorize bad return URL',
      (s: SdkInitPayload) => [
        s.links.authorize,
        { amount: s.amount, paymentComposition: [{ paymentMethodCode: 'pix', integrationType: 'hpp' }], returnInfo: { success: 'nope' } },
      ],
    ],
    [
      'authorize disabled method',
      (s: SdkInitPayload) => [
        s.links.authorize,
        { amount: s.amount, paymentComposition: [{ paymentMethodCode: 'sofort', integrationType: 'hpp' }] },
      ],
    ],
    ['confirm before authorize', (s: SdkInitPayload) => [`${s.links.execution}/confirm`, { data: {} }]],
    [
      'save instrument unknown token',
      (s: SdkInitPayload) => [
        s.links.saveInstrument,
        {
          holderReference: s.holderReference,
          paymentMethod: 'card',
          data: { encryptedData: 'tok_nope', vaultProviderConfigId: s.vaultProviderConfigId },
        },
      ],
    ],
    [
      'save instrument other holder',
      (s: SdkInitPayload) => [
        s.links.saveInstrument,
        {
          holderReference: 'someone-else',
          paymentMethod: 'card',
          data: { encryptedData: 'tok_nope', vaultProviderConfigId: s.vaultProviderConfigId },
        },
      ],
    ],
    [
      'save instrument wrong method',
      (s: SdkInitPayload) => [s.links.saveInstrument, { holderReference: s.holderReference, paymentMethod: 'iban', data: {} }],
    ],
    [
      'apple session wrong amount',
      (s: SdkInitPayload) => [
        s.links.applePaySession,
        { integrationType: 'api', paymentMethodCode: 'applePay', amount: { value: 5, currency: 'USD' }, clientContext: { host: 'x' } },
      ],
    ],
    [
      'unknown execution',
      (s: SdkInitPayload) => [
        `${s.links.authorize.replace(s.executionId, 'exe_missing')}`,
        { amount: s.amount, paymentComposition: [{ paymentMethodCode: 'card', integrationType: 'api' }] },
      ],
    ],
  ] as const)('client API: %s', async (_name, build) => {
    const session = await createSession(gateway);
    const [url, json] = build(session) as unknown as readonly [string, unknown];
    const answer = await call<{ code: string }>(url, { headers: bearer(session), json });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(answer.body.code).toEqual(expect.any(String));
  });

  it.each([
    ['session without amount', '/merchant/v1/sessions', { holderReference: 'h' }],
    ['session negative amount', '/merchant/v1/sessions', { amount: { value: -1, currency: 'USD' }, holderReference: 'h' }],
    [
      'charge unknown instrument',
      '/merchant/v1/charges',
      { instrumentId: 'ins_x', holderReference: 'h', amount: { value: 1, currency: 'USD' } },
    ],
    ['refund unknown execution', '/merchant/v1/executions/exe_x/refunds', {}],
    [
      'merchant validation http URL',
      '/merchant/v1/wallets/apple-pay/merchant-validation',
      { sessionUrl: 'http://apple.example', clientDomain: 'x' },
    ],
  ])('merchant API: %s', async (_name, path, json) => {
    const answer = await call<{ code: string }>(`${gateway.url}${path}`, { headers: merchantHeaders(), json });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(answer.body.code).toEqual(expect.any(String));
  });
});

describe('rate limiting', () => {
  it('answers 429 RATE_LIMITED per token', async () => {
    const limited = await startGateway({ GATEWAY_RATE_LIMIT_PER_MINUTE: '5' });
    try {
      const session = await createSession(limited);
      const statuses: number[] = [];
      for (let i = 0; i < 6; i += 1) statuses.push((await call(session.links.execution, { headers: bearer(session) })).status);
      expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
      const blocked = await call<{ code: string }>(session.links.execution, { headers: bearer(session) });
      expect(blocked.status).toBe(429);
      expect(blocked.body.code).toBe('RATE_LIMITED');
      // Another token has its own budget.
      const other = await createSession(limited);
      expect((await call(other.links.execution, { headers: bearer(other) })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('secure-field frames', () => {
  it('are served from the gateway origin with their frame-ancestors policy', async () => {
    const answer = await call(`${gateway.url}/secure-fields/v1/card-number.html`);
    // The frames are a build output: without it this test cannot run its real part, and says so.
    if (answer.status === 404)
      throw new Error('secure-fields are not built: run `npm run build` first (`npm test` builds before the tests)');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-security-policy')).toContain('frame-ancestors');
  });
});
