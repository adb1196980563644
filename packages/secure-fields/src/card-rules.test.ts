import { describe, expect, it, vi } from 'vitest';
import {
  cvvMaxLength,
  detectNetwork,
  formatCardNumber,
  formatExpiry,
  isCardholderNameValid,
  isCardNumberValid,
  isCvvValid,
  isExpiryValid,
  expiryProblem,
  isExpiryYearInRange,
  MAX_EXPIRY_YEARS_AHEAD,
  isMonthValid,
  isPinValid,
  luhn,
  maskCardNumber,
  parseExpiry,
  parseYear,
  resolveExpiryFormat,
  resolveYearFormat,
  separatorOf,
} from './card-rules';

describe('brand detection and lengths (checkout-spec §5)', () => {
  it.each([
    ['4242424242424242', 'visa'],
    ['5555555555554444', 'mastercard'],
    ['378282246310005', 'amex'],
    ['341111111111111', 'amex'],
    ['6011111111111117', 'discover'],
    ['6500000000000002', 'discover'],
    ['3056930009020004', 'diners'],
    ['3566002020360505', 'jcb'],
    ['6200000000000005', 'unionpay'],
    ['6062826786276634', 'hipercard'],
    ['6759649826438453', 'maestro'],
  ])('%s is %s and valid', (number, network) => {
    expect(detectNetwork(number)).toBe(network);
    expect(isCardNumberValid(number)).toBe(true);
  });
  it('enforces length by brand and Luhn', () => {
    expect(isCardNumberValid('37828224631000')).toBe(false);
    expect(isCardNumberValid('4242424242424241')).toBe(false);
    expect(isCardNumberValid('4222222222222')).toBe(true);
    expect(isCardNumberValid('555555555555444')).toBe(false);
    // Luhn-valid but of no known brand: refused, as the vault refuses it.
    expect(isCardNumberValid('9999999999999995')).toBe(false);
    expect(isCardNumberValid('1234567812345670')).toBe(false);
    expect(luhn('')).toBe(false);
    expect(luhn('79927398713')).toBe(true);
  });
});

describe('formatting and masking', () => {
  it('groups by 4 with a space, or a hyphen in the hyphen format', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4242-4242 4242x4242', '-')).toBe('4242-4242-4242-4242');
    expect(formatCardNumber('42424242424242424242')).toBe('4242 4242 4242 4242 424');
    expect(separatorOf('XXXX-XXXX-XXXX-XXXX')).toBe('-');
    expect(separatorOf(undefined)).toBe(' ');
  });
  it('masks: ≤15 digits keep 6, otherwise 8', () => {
    expect(maskCardNumber('378282246310005')).toBe('378282XXXXXXXXX');
    expect(maskCardNumber('4242 4242 4242 4242')).toBe('42424242XXXXXXXX');
    expect(maskCardNumber('4242')).toBe('4242');
  });
});

describe('expiry', () => {
  const now = new Date('2026-11-21T00:00:00Z');
  it('formats and parses the four formats', () => {
    expect(formatExpiry('1234', 'MM/YY')).toBe('12/34');
    expect(formatExpiry('1', 'MM/YY')).toBe('1');
    expect(formatExpiry('203412', 'YYYY/MM')).toBe('2034/12');
    expect(parseExpiry('12/34', 'MM/YY')).toEqual({ month: 12, year: 2034 });
    expect(parseExpiry('2034/12', 'YYYY/MM')).toEqual({ month: 12, year: 2034 });
    expect(parseExpiry('34/12', 'YY/MM')).toEqual({ month: 12, year: 2034 });
    expect(parseExpiry('12/2034', 'MM/YYYY')).toEqual({ month: 12, year: 2034 });
    expect(parseExpiry('13/34', 'MM/YY')).toBeUndefined();
    expect(parseExpiry('1/34', 'MM/YY')).toBeUndefined();
  });
  it('accepts the current month, rejects the past', () => {
    expect(isExpiryValid(11, 2026, now)).toBe(true);
    expect(isExpiryValid(10, 2026, now)).toBe(false);
    expect(isExpiryValid(1, 2025, now)).toBe(false);
    expect(isExpiryValid(13, 2030, now)).toBe(false);
    expect(isExpiryValid(1, 2090, now)).toBe(false);
    // One range with the vault: up to MAX_EXPIRY_YEARS_AHEAD (20) years ahead, no further.
    expect(isExpiryValid(12, now.getUTCFullYear() + MAX_EXPIRY_YEARS_AHEAD, now)).toBe(true);
    expect(isExpiryValid(1, now.getUTCFullYear() + MAX_EXPIRY_YEARS_AHEAD + 1, now)).toBe(false);
    expect(expiryProblem(1, now.getUTCFullYear() + 30, now)).toBe('too-far');
    expect(expiryProblem(1, 2025, now)).toBe('expired');
    expect(isExpiryYearInRange(now.getUTCFullYear() + MAX_EXPIRY_YEARS_AHEAD, now)).toBe(true);
    expect(isExpiryYearInRange(now.getUTCFullYear() + MAX_EXPIRY_YEARS_AHEAD + 1, now)).toBe(false);
  });
  it('warns and falls back on unknown formats; year format YY by default', () => {
    const warn = vi.fn();
    expect(resolveExpiryFormat('DD/MM', warn)).toBe('MM/YY');
    expect(resolveExpiryFormat('MM/YYYY', warn)).toBe('MM/YYYY');
    expect(resolveYearFormat(undefined, warn)).toBe('YY');
    expect(resolveYearFormat('Y', warn)).toBe('YY');
    expect(warn).toHaveBeenCalledTimes(2);
    expect(parseYear('34', 'YY')).toBe(2034);
    expect(parseYear('2034', 'YY')).toBeUndefined();
    expect(isMonthValid('00')).toBe(false);
    expect(isMonthValid('09')).toBe(true);
  });
});

describe('CVV, PIN and cardholder name', () => {
  it('CVV is 3–4 digits, input max 3 (4 for amex)', () => {
    expect(isCvvValid('123')).toBe(true);
    expect(isCvvValid('1234')).toBe(true);
    expect(isCvvValid('12')).toBe(false);
    expect(cvvMaxLength('visa')).toBe(3);
    expect(cvvMaxLength('amex')).toBe(4);
  });
  it('PIN is 4–12 digits', () => {
    expect(isPinValid('1234')).toBe(true);
    expect(isPinValid('123')).toBe(false);
    expect(isPinValid('1234567890123')).toBe(false);
  });
  it('cardholder name: letters, spaces, comma, dot, hyphen, apostrophe; at least 2', () => {
    expect(isCardholderNameValid("Anne-Marie O'Neil, Jr.")).toBe(true);
    expect(isCardholderNameValid('José Ñúñez')).toBe(true);
    expect(isCardholderNameValid('A')).toBe(false);
    expect(isCardholderNameValid('R2D2')).toBe(false);
  });
});
