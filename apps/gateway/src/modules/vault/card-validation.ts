import type { CardNetwork } from '@roots/contracts/gateway';
import cardValidator from 'card-validator';
import { GatewayError } from '../../errors';

/** card-validator's type names → checkout-spec §3 networks (others are not accepted). */
const NETWORK_BY_VALIDATOR_TYPE: Record<string, CardNetwork> = {
  visa: 'visa',
  mastercard: 'mastercard',
  'american-express': 'amex',
  'diners-club': 'diners',
  discover: 'discover',
  jcb: 'jcb',
  unionpay: 'unionpay',
  maestro: 'maestro',
  hipercard: 'hipercard',
  hiper: 'hipercard',
};

/** Network of a (partial) card number, when its prefix identifies one. */
export function detectNetwork(digits: string): CardNetwork | undefined {
  const type = cardValidator.number(digits).card?.type;
  return type ? NETWORK_BY_VALIDATOR_TYPE[type] : undefined;
}

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
  const verdict = cardValidator.number(number);
  const network = verdict.card ? NETWORK_BY_VALIDATOR_TYPE[verdict.card.type] : undefined;
  if (!verdict.card || !network) throw new GatewayError('CARD_INVALID', 'cardNumber: card brand not supported');
  if (!verdict.card.lengths.includes(number.length)) throw new GatewayError('CARD_INVALID', `cardNumber: wrong length for ${network}`);
  if (!verdict.isValid) throw new GatewayError('CARD_INVALID', 'cardNumber: failed the Luhn check');

  const month = Number(input.expiryMonth);
  const yearRaw = String(input.expiryYear).trim();
  if (!/^\d{2}(\d{2})?$/.test(yearRaw)) throw new GatewayError('CARD_INVALID', 'expiryYear: must be YY or YYYY');
  const year = yearRaw.length === 2 ? 2000 + Number(yearRaw) : Number(yearRaw);
  if (!Number.isInteger(month) || month < 1 || month > 12) throw new GatewayError('CARD_INVALID', 'expiryMonth: must be 1 to 12');
  const currentYear = now.getUTCFullYear();
  const currentMonth = now.getUTCMonth() + 1;
  if (year < currentYear || (year === currentYear && month < currentMonth))
    throw new GatewayError('CARD_INVALID', 'expiry: card has expired');
  if (year > currentYear + 20) throw new GatewayError('CARD_INVALID', 'expiryYear: too far in the future');

  const cvvLength = verdict.card.code.size;
  if (!new RegExp(`^\\d{${cvvLength}}$`).test(input.cvv))
    throw new GatewayError('CARD_INVALID', `cvv: must be ${cvvLength} digits for ${network}`);

  return { number, network, bin: binOf(number), last4: number.slice(-4), expiryMonth: month, expiryYear: year };
}
