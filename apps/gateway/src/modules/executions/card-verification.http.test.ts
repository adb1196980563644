import { randomUUID } from 'node:crypto';
import type { Execution, StoredInstrument } from '@roots/contracts/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorize,
  bearer,
  call,
  cardAuthorizeBody,
  createSession,
  merchantHeaders,
  payByCard,
  saveInstrument,
  startGateway,
  tokenize,
  type TestGateway,
} from '../../test/helpers';

let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(async () => gateway.close());

const merchantExecution = async (id: string) =>
  (await call<Execution>(`${gateway.url}/merchant/v1/executions/${id}`, { headers: merchantHeaders() })).body;

const charge = (instrumentId: string, holderReference: string, value: number) =>
  call<Execution>(`${gateway.url}/merchant/v1/charges`, {
    headers: merchantHeaders(),
    json: { instrumentId, holderReference, amount: { value, currency: 'USD' }, reason: 'recurring', orderReference: 'renewal' },
  });

/** Opens a zero-amount session and authorizes a card in it as the SDK's card form does ("save card"). */
async function verifyCard(number: string, holderReference: string, storeInstrument = true) {
  const session = await createSession(gateway, { amount: 0, holderReference });
  const token = await tokenize(session, { number });
  const instrument = await saveInstrument(session, token.body.token, storeInstrument);
  const execution = await authorize(session, cardAuthorizeBody(session, instrument.id, storeInstrument));
  return { session, instrument, execution };
}

describe('card verification: a zero-amount session stores a card (ADR 143)', () => {
  it('offers the card method only, verifies the card for nothing, and enables the instrument for later charges', async () => {
    const holderReference = `holder-verify-${randomUUID()}`;
    const { session, instrument, execution } = await verifyCard('5555555555554444', holderReference);
    expect(session.amount).toEqual({ value: 0, currency: 'USD' });
    expect(session.paymentMethods.map((method) => method.code)).toEqual(['card']);
    expect(instrument.status).toBe('created');
    expect(execution.status).toBe(200);
    const verified = await merchantExecution(execution.body.id);
    expect(verified).toMatchObject({
      status: 'authorizeSuccessful',
      amount: { value: 0, currency: 'USD' },
      holderReference,
      merchantInitiated: false,
      amountRefunded: 0,
      instrument: { id: instrument.id, status: 'enabled', last4: '4444', network: 'mastercard' },
    });
    // The verified card is the holder's, chargeable without the shopper (a renewal).
    const renewal = await charge(instrument.id, holderReference, 2499);
    expect(renewal.status).toBe(201);
    expect(renewal.body).toMatchObject({ status: 'authorizeSuccessful', merchantInitiated: true, instrument: { id: instrument.id } });
    // Nothing was taken, so nothing can be refunded.
    const refund = await call(`${gateway.url}/merchant/v1/executions/${verified.id}/refunds`, { headers: merchantHeaders(), json: {} });
    expect(refund.status).toBe(422);
    expect(refund.body).toMatchObject({ code: 'REFUND_NOT_ALLOWED' });
  });

  it('refuses a zero-amount authorization that would not store the card, and leaves the execution created', async () => {
    const holderReference = `holder-verify-${randomUUID()}`;
    const refused = await verifyCard('4242424242424242', holderReference, false);
    expect(refused.execution.status).toBe(400);
    expect(refused.execution.body).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(refused.execution.text).toContain('storeInstrument must be true');
    const polled = await call<Execution>(refused.session.links.execution, { headers: bearer(refused.session) });
    expect(polled.body.status).toBe('created');
    const stored = await call<{ items: StoredInstrument[] }>(`${gateway.url}/merchant/v1/holders/${holderReference}/instruments`, {
      headers: merchantHeaders(),
    });
    expect(stored.body.items.filter((item) => item.status === 'enabled')).toEqual([]);
  });

  it('refuses a zero-amount session that names a method other than card', async () => {
    const answer = await call(`${gateway.url}/merchant/v1/sessions`, {
      headers: merchantHeaders(),
      json: { amount: { value: 0, currency: 'USD' }, holderReference: 'h-verify', paymentMethods: ['card', 'payPal', 'pix'] },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(answer.text).toContain('payPal, pix cannot be offered for nothing');
  });

  it('runs the card’s own scenario: a declining card is not verified and not enabled', async () => {
    const holderReference = `holder-verify-${randomUUID()}`;
    const { instrument, execution } = await verifyCard('4000000000000002', holderReference);
    expect(execution.body).toMatchObject({ status: 'authorizeFailed', finalState: { errors: [{ reason: { code: 'card_declined' } }] } });
    const refused = await charge(instrument.id, holderReference, 2499);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'INSTRUMENT_NOT_USABLE' });
  });

  it('refuses a merchant-initiated charge of nothing (cards are verified with the shopper)', async () => {
    const holderReference = `holder-verify-${randomUUID()}`;
    const { instrument } = await verifyCard('4242424242424242', holderReference);
    const nothing = await charge(instrument.id, holderReference, 0);
    expect(nothing.status).toBe(400);
    expect(nothing.body).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(nothing.text).toContain('a merchant-initiated charge moves money');
  });
});

describe('the card whose later charges run dry (4000 0000 0000 9953)', () => {
  it('pays and verifies with the shopper present; a merchant-initiated charge is declined for insufficient funds', async () => {
    const holderReference = `holder-dry-${randomUUID()}`;
    const { instrument, execution } = await payByCard(gateway, { number: '4000000000009953' }, { storeInstrument: true, holderReference });
    expect(execution.body.status).toBe('authorizeSuccessful');
    const renewal = await charge(instrument.id, holderReference, 2499);
    expect(renewal.body).toMatchObject({
      status: 'authorizeFailed',
      merchantInitiated: true,
      finalState: { errors: [{ reason: { code: 'insufficient_funds' } }] },
    });
    const verified = await verifyCard('4000000000009953', holderReference);
    expect(verified.execution.body.status).toBe('authorizeSuccessful');
  });
});
