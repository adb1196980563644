import { luhn } from '@roots/secure-fields/card-rules';
import { describe, expect, it } from 'vitest';
import { applePayNetworkToken } from './apple-pay-token';

const token = (paymentMethod: { displayName: string; network: string; type: string }, transactionId = 'tx-1') => ({
  paymentData: {
    version: 'EC_v1',
    data: 'ZW5jcnlwdGVk',
    signature: 'c2ln',
    header: { ephemeralPublicKey: 'ZXBo', publicKeyHash: 'aGFzaA==', transactionId },
  },
  paymentMethod,
  transactionIdentifier: transactionId.toUpperCase(),
});

describe('applePayNetworkToken (the sandbox provider decrypting an Apple-type token)', () => {
  it('derives a Luhn-valid network token of the card network, ending in the digits the wallet shows', () => {
    const visa = applePayNetworkToken(token({ displayName: 'Visa 0224', network: 'Visa', type: 'debit' }), new Date('2026-11-25'));
    expect(visa).toMatchObject({ ok: true, card: { network: 'visa', last4: '0224', expiryMonth: 12, expiryYear: 2029 } });
    const number = visa.ok ? visa.card.number : '';
    expect(number).toMatch(/^4\d{11}0224$/);
    expect(luhn(number)).toBe(true);
    const amex = applePayNetworkToken(token({ displayName: 'Amex 1005', network: 'AmEx', type: 'credit' }));
    expect(amex.ok && amex.card.number).toMatch(/^37\d{9}1005$/);
    expect(amex.ok && luhn(amex.card.number)).toBe(true);
  });

  it('is stable for one token and differs across tokens', () => {
    const method = { displayName: 'MasterCard 4444', network: 'MasterCard', type: 'credit' };
    const first = applePayNetworkToken(token(method, 'tx-a'));
    expect(applePayNetworkToken(token(method, 'tx-a'))).toEqual(first);
    expect(applePayNetworkToken(token(method, 'tx-b'))).not.toEqual(first);
  });

  it('refuses what is not a PKPaymentToken or names an unsupported network', () => {
    expect(applePayNetworkToken({ paymentData: 'opaque' })).toMatchObject({ ok: false });
    expect(applePayNetworkToken('decline')).toMatchObject({ ok: false });
    expect(applePayNetworkToken(token({ displayName: 'JCB 0505', network: 'JCB', type: 'credit' }))).toMatchObject({
      ok: false,
      reason: 'card network JCB is not supported',
    });
  });
});
