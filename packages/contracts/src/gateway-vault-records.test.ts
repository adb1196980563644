import { describe, expect, it } from 'vitest';
import { asciiDigits, holdsCardData, recordHoldsCardData, vaultRecordInputSchema } from './gateway-vault-records';

describe('the vault refuses card data in generic records (issue 22)', () => {
  it('finds a card number however it is written', () => {
    for (const value of [
      '4242424242424242',
      '4242 4242 4242 4242',
      '4242-4242-4242-4242',
      '4242.4242.4242.4242',
      '4242/4242/4242/4242',
      '４２４２ ４２４２ ４２４２ ４２４２',
      '٤٢٤٢٤٢٤٢٤٢٤٢٤٢٤٢',
      'card: 4242 4242 4242 4242 exp 12/28',
      '378282246310005',
    ]) {
      expect(holdsCardData('note', value), value).toBe(true);
    }
  });

  it('finds columns named for card data, whatever their spelling', () => {
    for (const column of ['card_number', 'cardNumber', 'cardNumberX', 'CCNum2', 'cvv', 'user_cvc2', 'securityCode', 'pan', 'card_pan'])
      expect(holdsCardData(column, 'x'), column).toBe(true);
    for (const column of ['company', 'name', 'postal_code', 'phone', 'cardholder_name', 'expansion'])
      expect(holdsCardData(column, 'x'), column).toBe(false);
  });

  it('finds a number split over two fields in a row', () => {
    expect(recordHoldsCardData({ first: '4242 4242', second: '4242 4242' })).toBe(true);
    expect(recordHoldsCardData({ first: '4242-4242-', second: '4242 4242', city: 'Berlin' })).toBe(true);
    expect(vaultRecordInputSchema.safeParse({ table: 't', fields: { a: '4242 4242', b: '4242 4242' } }).success).toBe(false);
  });

  it('finds a number behind letters as separators, or split over several fields (issue 32)', () => {
    for (const value of ['4242x4242x4242x4242', '4242a4242bc4242def4242', 'ref 5555x5555x5555x4444 ok', '3782x822463x10005'])
      expect(holdsCardData('note', value), value).toBe(true);
    expect(recordHoldsCardData({ a: '4242', b: '4242', c: '4242', d: '4242' })).toBe(true);
    expect(recordHoldsCardData({ a: '4', b: '242', c: '42424242', d: '4242', e: '0000' })).toBe(true);
    expect(recordHoldsCardData({ name: 'Ada', a: '4242.', b: '4242', c: '4242', d: '4242', city: 'Berlin' })).toBe(true);
    expect(vaultRecordInputSchema.safeParse({ table: 't', fields: { a: '4242', b: '4242', c: '4242', d: '4242' } }).success).toBe(false);
    // Letters between digits that make no card number, a field with letters breaking the row, a long gap.
    for (const value of ['4242x4242x4242x4241', 'Musterstr. 12a, 10115 Berlin', 'order 4242 then 4242 then 4242 then 4242'])
      expect(holdsCardData('note', value), value).toBe(false);
    expect(recordHoldsCardData({ a: '4242', b: '4242', c: 'x', d: '4242', e: '4242' })).toBe(false);
    expect(recordHoldsCardData({ house: '12', postal_code: '10115', phone: '030 1234567', floor: '3' })).toBe(false);
  });

  it('lets ordinary values through', () => {
    for (const value of ['Jane Doe', '10115', '+49 30 1234567', '2026-11-26', '4242 4242 4242 4241', '1 Example Street, 10115 Berlin'])
      expect(holdsCardData('note', value), value).toBe(false);
    expect(recordHoldsCardData({ name: 'Jane', postal_code: '10115', city: 'Berlin' })).toBe(false);
  });

  it('reads every script’s decimal digits as ASCII', () => {
    expect(asciiDigits('０１２３４５６７８９')).toBe('0123456789');
    expect(asciiDigits('٠١٢٣٤٥٦٧٨٩')).toBe('0123456789');
    expect(asciiDigits('०१२३४५६७८९')).toBe('0123456789');
    expect(asciiDigits('𝟎𝟏𝟐𝟗𝟘𝟙')).toBe('012901');
  });
});
