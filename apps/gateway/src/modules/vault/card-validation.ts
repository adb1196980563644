import type { CardNetwork } from '@roots/contracts/gateway';
import {
  CARD_LENGTHS,
  cvvMaxLength,
  detectNetwork,
  expiryProblem,
  isCvvValidFor,
  luhn,
  MAX_EXPIRY_YEARS_AHEAD,
} from '@roots/secure-fields/card-rules';
import { GatewayError } from '../../errors';

// One set of card rules (checkout-spec §5: prefixes, lengths per brand, Luhn, CVV) for the frames
// that take the number and the vault that stores it, so a card the form accepts is never refused here.

export type ValidatedCard = {
  number: string;
  network: CardNetwork;
  bin: string;
  last4: string;
  expiryMonth: number;
  expiryYear: number;
};

/** BIN as checkout-spec §5 defines it: first 8 digits (first 6 for cards of 15 digits or fewer). */
export function binOf(number: string): string {
  return number.slice(0, number.length <= 15 ? 6 : 8);
}

/**
 * Validates card data (Luhn, brand, length per brand, expiry not past, CVV length per brand).
 * Errors name the field, never its value.
 */
export function validateCard(
  input: { cardNumber: string; expiryMonth: string | number; expiryYear: string | number; cvv: string },
  now: Date,
): ValidatedCard {
  const number = input.cardNumber.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(number)) throw new GatewayError('CARD_INVALID', 'cardNumber: must be 12 to 19 digits');
  const network: CardNetwork | undefined = detectNetwork(number);
  if (!network) throw new GatewayError('CARD_INVALID', 'cardNumber: card brand not supported');
  if (!CARD_LENGTHS[network].includes(number.length)) throw new GatewayError('CARD_INVALID', `cardNumber: wrong length for ${network}`);
  if (!luhn(number)) throw new GatewayError('CARD_INVALID', 'cardNumber: failed the Luhn check');

  const month = Number(input.expiryMonth);
  const yearRaw = String(input.expiryYear).trim();
  if (!/^\d{2}(\d{2})?$/.test(yearRaw)) throw new GatewayError('CARD_INVALID', 'expiryYear: must be YY or YYYY');
  const year = yearRaw.length === 2 ? 2000 + Number(yearRaw) : Number(yearRaw);
  // The frames' own expiry rule (isExpiryValid), so the range the form accepts is the vault's.
  switch (expiryProblem(month, year, now)) {
    case 'month':
      throw new GatewayError('CARD_INVALID', 'expiryMonth: must be 1 to 12');
    case 'expired':
      throw new GatewayError('CARD_INVALID', 'expiry: card has expired');
    case 'too-far':
      throw new GatewayError('CARD_INVALID', `expiryYear: more than ${MAX_EXPIRY_YEARS_AHEAD} years ahead`);
    case undefined:
      break;
  }

  if (!isCvvValidFor(input.cvv, network))
    throw new GatewayError('CARD_INVALID', `cvv: must be 3 to ${cvvMaxLength(network)} digits for ${network}`);

  return { number, network, bin: binOf(number), last4: number.slice(-4), expiryMonth: month, expiryYear: year };
}
