import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../errors';
import { lookupBin } from './bin-lookup';
import { CardCipher } from './card-cipher';
import { isCardNumberValid, isExpiryValid } from '@roots/secure-fields/card-rules';
import { binOf, validateCard } from './card-validation';
import { instrumentView } from './vault.service';

const NOW = new Date('2026-11-21T12:00:00Z');
const card = (cardNumber: string, cvv = '123', expiryMonth: string | number = '12', expiryYear: string | number = '30') => ({
  cardNumber,
  cvv,
  expiryMonth,
  expiryYear,
});

describe('card validation', () => {
  it('accepts valid cards of every network and reports brand, BIN and last 4', () => {
    expect(validateCard(card('4242 4242 4242 4242'), NOW)).toMatchObject({
      network: 'visa',
      bin: '42424242',
      last4: '4242',
      expiryYear: 2030,
    });
    expect(validateCard(card('378282246310005', '1234'), NOW)).toMatchObject({ network: 'amex', bin: '378282' });
    expect(validateCard(card('6062826786276634'), NOW).network).toBe('hipercard');
    expect(validateCard(card('6759649826438453'), NOW).network).toBe('maestro');
  });

  it('accepts what the secure frames accept (checkout-spec §5): a 13-digit visa, a 3-digit amex CVV', () => {
    expect(validateCard(card('4222222222222'), NOW)).toMatchObject({ network: 'visa', bin: '422222', last4: '2222' });
    expect(validateCard(card('378282246310005', '123'), NOW).network).toBe('amex');
  });

  it.each([
    ['Luhn', card('4242424242424241'), /Luhn/],
    ['brand', card('9999999999999995'), /brand/],
    ['length per brand', card('555555555555444'), /length/],
    ['expired last month', card('4242424242424242', '123', 10, 2026), /expired/],
    ['month', card('4242424242424242', '123', 0), /expiryMonth/],
    ['year format', card('4242424242424242', '123', 12, 203), /expiryYear/],
    ['CVV length', card('4242424242424242', '1234'), /cvv/],
    ['amex CVV length', card('378282246310005', '12345'), /cvv/],
    ['CVV too short', card('378282246310005', '12'), /cvv/],
  ])('rejects %s without echoing the value', (_name, input, message) => {
    try {
      validateCard(input, NOW);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(GatewayError);
      expect((error as GatewayError).code).toBe('CARD_INVALID');
      expect((error as GatewayError).message).toMatch(message);
      expect((error as GatewayError).message).not.toContain(input.cardNumber);
    }
  });

  it('agrees with the frames on expiry range and unknown brands (one rule set)', () => {
    const frames = (number: string, month: number, year: number) => isCardNumberValid(number) && isExpiryValid(month, year, NOW);
    const vault = (number: string, month: number, year: number) => {
      try {
        validateCard(card(number, '123', month, year), NOW);
        return true;
      } catch {
        return false;
      }
    };
    const cases: Array<[string, number, number]> = [
      ['4242424242424242', 12, 2046],
      ['4242424242424242', 1, 2047],
      ['4242424242424242', 10, 2026],
      ['9999999999999995', 12, 2030],
      ['4222222222222', 12, 2030],
    ];
    for (const [number, month, year] of cases)
      expect(vault(number, month, year), `${number} ${month}/${year}`).toBe(frames(number, month, year));
    expect(vault('4242424242424242', 12, 2046)).toBe(true);
    expect(vault('4242424242424242', 1, 2047)).toBe(false);
    expect(vault('9999999999999995', 12, 2030)).toBe(false);
  });

  it('accepts a card expiring this month', () => {
    expect(validateCard(card('4242424242424242', '123', 11, 2026), NOW).expiryMonth).toBe(11);
  });

  it('takes 6 BIN digits for short cards, 8 otherwise', () => {
    expect(binOf('378282246310005')).toBe('378282');
    expect(binOf('4242424242424242')).toBe('42424242');
  });
});

describe('BIN lookup', () => {
  it('finds network and issuer country (40000CCC → ISO numeric CCC)', () => {
    expect(lookupBin('4000-0826')).toEqual({ bin: '40000826', network: 'visa', issuerCountry: { code: 'GB' } });
    expect(lookupBin('378282XXXX')).toEqual({ bin: '378282', network: 'amex', issuerCountry: { code: 'US' } });
  });
});

describe('card cipher (AES-256-GCM)', () => {
  const cipher = new CardCipher(Buffer.alloc(32, 1).toString('base64'));
  const secret = { number: '4242424242424242', expiryMonth: 12, expiryYear: 2030, holderName: 'Ada' };

  it('round-trips and never produces the same ciphertext twice', () => {
    const a = cipher.encrypt(secret);
    const b = cipher.encrypt(secret);
    expect(a).not.toBe(b);
    expect(a).not.toContain('4242');
    expect(cipher.decrypt(a)).toEqual(secret);
  });

  it('fails on tampering and on another key', () => {
    const sealed = cipher.encrypt(secret);
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3] ?? '', 'base64url');
    body[0] = (body[0] ?? 0) ^ 1;
    expect(() => cipher.decrypt([parts[0], parts[1], parts[2], body.toString('base64url')].join('.'))).toThrow();
    expect(() => new CardCipher(Buffer.alloc(32, 2).toString('base64')).decrypt(sealed)).toThrow();
    expect(() => new CardCipher(Buffer.alloc(16).toString('base64'))).toThrow(/32 bytes/);
  });
});

describe("a stored card's label", () => {
  const row = (network: string | null, last4: string) => ({
    id: 'ins_1',
    holderReference: 'h',
    status: 'enabled',
    futureUsage: 'subscription',
    encryptedCard: 'x',
    network,
    bin: '37828224',
    last4,
    issuerCountry: 'US',
    createdAt: NOW,
    updatedAt: NOW,
  });

  it("names the network as every other screen does (one name each), 'Card' when unknown", () => {
    expect(instrumentView(row('amex', '0005')).displayName).toBe('American Express •••• 0005');
    expect(instrumentView(row('diners', '0004')).displayName).toBe('Diners Club •••• 0004');
    expect(instrumentView(row(null, '1111')).displayName).toBe('Card •••• 1111');
  });
});
