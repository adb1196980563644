import type { Execution } from '@roots/contracts/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorize,
  cardAuthorizeBody,
  createSession,
  poll,
  RETURN_INFO,
  saveInstrument,
  startGateway,
  tokenize,
  type TestGateway,
} from '../../test/helpers';

const SHOP = 'https://shop.example';
const CHALLENGE_CARD = '4000000000003220';

/**
 * Issue 32: a failed 3-D Secure page sent the shopper to any `returnInfo` URL. Authorize now
 * refuses return URLs off the merchant's configured origins (GATEWAY_MERCHANT_ORIGINS), before
 * the execution changes.
 */
describe('returnInfo is limited to the merchant origins', () => {
  let gateway: TestGateway;
  let anyOrigin: TestGateway;

  beforeAll(async () => {
    gateway = await startGateway({ GATEWAY_MERCHANT_ORIGINS: `${SHOP},http://127.0.0.1:3000` });
    anyOrigin = await startGateway({ GATEWAY_MERCHANT_ORIGINS: '*' });
  });
  afterAll(async () => {
    await gateway.close();
    await anyOrigin.close();
  });

  async function cardSession(target: TestGateway) {
    const session = await createSession(target);
    const token = await tokenize(session, { number: CHALLENGE_CARD });
    const instrument = await saveInstrument(session, token.body.token);
    return { session, instrument };
  }

  it('refuses a return URL on another origin with a 400 naming the field, and the execution is untouched', async () => {
    const { session, instrument } = await cardSession(gateway);
    const evil = { ...RETURN_INFO, error: 'https://evil.example/phish' };
    const refused = await authorize(session, cardAuthorizeBody(session, instrument.id, false, evil));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      error: "returnInfo.error: https://evil.example is not one of the merchant's origins (GATEWAY_MERCHANT_ORIGINS)",
    });
    expect((await poll(session)).status).toBe('created');
    // A look-alike host (the merchant's origin as a prefix) is another origin.
    const lookAlike = { ...RETURN_INFO, success: `${SHOP}.evil.example/ok` };
    expect((await authorize(session, cardAuthorizeBody(session, instrument.id, false, lookAlike))).status).toBe(400);
  });

  it('accepts return URLs on any configured merchant origin', async () => {
    const { session, instrument } = await cardSession(gateway);
    const shop = { success: `${SHOP}/ok`, cancel: `${SHOP}/cancel`, error: 'http://127.0.0.1:3000/pay/error', pending: `${SHOP}/p?x=1` };
    const accepted = await authorize(session, cardAuthorizeBody(session, instrument.id, false, shop));
    expect(accepted.status).toBe(200);
    expect((accepted.body as Execution).status).toBe('authorizePending');
  });

  it('with `*` (local experiments) still refuses a scheme other than http(s)', async () => {
    const { session, instrument } = await cardSession(anyOrigin);
    const script = { ...RETURN_INFO, error: 'javascript:alert(1)' };
    const refused = await authorize(session, cardAuthorizeBody(session, instrument.id, false, script));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'VALIDATION_ERROR', error: 'returnInfo.error: must be an http(s) URL' });
    const elsewhere = { ...RETURN_INFO, error: 'https://elsewhere.example/e' };
    expect((await authorize(session, cardAuthorizeBody(session, instrument.id, false, elsewhere))).status).toBe(200);
  });
});
