/**
 * Card value rules of checkout-spec §5, applied inside the secure frames (the only place card
 * data exists in the browser): brand detection, lengths, Luhn, formatting, masking, expiry, CVV,
 * cardholder name and BIN.
 */

import { CARD_NETWORKS } from '@roots/contracts/gateway-constants';

/** Card networks of checkout-spec §3. */
export { CARD_NETWORKS };
export type Network = (typeof CARD_NETWORKS)[number];

/** Valid lengths per network (checkout-spec §5). */
export const CARD_LENGTHS: Record<Network, readonly number[]> = {
  amex: [15],
  visa: [13, 14, 15, 16, 17, 18, 19],
  mastercard: [16],
  diners: [14, 15, 16, 17, 18, 19],
  discover: [16, 17, 18, 19],
  jcb: [16, 17, 18, 19],
  unionpay: [16, 17, 18, 19],
  maestro: [12, 13, 14, 15, 16, 17, 18, 19],
  hipercard: [14, 15, 16, 17, 18, 19],
};

/** Prefix rules, most specific first (the drop-in's full list: checkout-spec §5). */
const PREFIXES: ReadonlyArray<[Network, RegExp]> = [
  ['hipercard', /^(606282|3841)/],
  ['amex', /^3[47]/],
  ['diners', /^(30[0-5]|309|36|38|39)/],
  ['jcb', /^35(2[89]|[3-8])/],
  ['discover', /^(6011|65|64[4-9])/],
  ['unionpay', /^62/],
  ['maestro', /^(5018|5020|5038|5893|6304|6759|676[1-3]|0604|6390)/],
  ['mastercard', /^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/],
  ['visa', /^4/],
];

export const digitsOf = (value: string): string => value.replace(/\D/g, '');

export function detectNetwork(value: string): Network | undefined {
  const digits = digitsOf(value);
  return PREFIXES.find(([, pattern]) => pattern.test(digits))?.[0];
}

/** Luhn check over the digits. */
export function luhn(value: string): boolean {
  const digits = digitsOf(value);
  if (digits.length === 0) return false;
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export const MAX_CARD_DIGITS = 19;

/**
 * A card number is complete and valid: a known network (checkout-spec §3's list; the vault stores
 * no other), an allowed length for it, Luhn. A Luhn-valid number of no known brand is refused here
 * as the vault refuses it, before the shopper pays.
 */
export function isCardNumberValid(value: string): boolean {
  const digits = digitsOf(value);
  const network = detectNetwork(digits);
  if (!network) return false;
  return CARD_LENGTHS[network].includes(digits.length) && luhn(digits);
}

/** Groups digits by 4 with a space, or a hyphen in the hyphen format (checkout-spec §2). */
export function formatCardNumber(value: string, separator: ' ' | '-' = ' '): string {
  return (
    digitsOf(value)
      .slice(0, MAX_CARD_DIGITS)
      .match(/.{1,4}/g)
      ?.join(separator) ?? ''
  );
}

/** The separator a `format` option asks for: a hyphen when it contains one. */
export function separatorOf(format: string | undefined): ' ' | '-' {
  return format !== undefined && format.includes('-') ? '-' : ' ';
}

/** Masks a card number (checkout-spec §3): ≤15 digits keep the first 6, otherwise the first 8; the rest become X. */
export function maskCardNumber(value: string): string {
  const digits = digitsOf(value);
  const keep = digits.length <= 15 ? 6 : 8;
  return digits.slice(0, keep) + 'X'.repeat(Math.max(0, digits.length - keep));
}

export const EXPIRY_FORMATS = ['MM/YY', 'YYYY/MM', 'YY/MM', 'MM/YYYY'] as const;
export type ExpiryFormat = (typeof EXPIRY_FORMATS)[number];
export const DEFAULT_EXPIRY_FORMAT: ExpiryFormat = 'MM/YY';
export const YEAR_FORMATS = ['YY', 'YYYY'] as const;
export type YearFormat = (typeof YEAR_FORMATS)[number];
export const DEFAULT_YEAR_FORMAT: YearFormat = 'YY';

/** An unknown format warns and falls back to the default (checkout-spec §5). */
export function resolveExpiryFormat(format: string | undefined, warn: (message: string) => void): ExpiryFormat {
  if (format === undefined) return DEFAULT_EXPIRY_FORMAT;
  if ((EXPIRY_FORMATS as readonly string[]).includes(format)) return format as ExpiryFormat;
  warn(`expiry format ${format} is not supported; using ${DEFAULT_EXPIRY_FORMAT}`);
  return DEFAULT_EXPIRY_FORMAT;
}
export function resolveYearFormat(format: string | undefined, warn: (message: string) => void): YearFormat {
  if (format === undefined) return DEFAULT_YEAR_FORMAT;
  if ((YEAR_FORMATS as readonly string[]).includes(format)) return format as YearFormat;
  warn(`year format ${format} is not supported; using ${DEFAULT_YEAR_FORMAT}`);
  return DEFAULT_YEAR_FORMAT;
}

/** Formats typed digits into the expiry format, inserting the slash. */
export function formatExpiry(value: string, format: ExpiryFormat): string {
  const digits = digitsOf(value);
  const [first = ''] = format.split('/');
  const cut = first.length;
  const total = format.length - 1;
  const kept = digits.slice(0, total);
  return kept.length > cut ? `${kept.slice(0, cut)}/${kept.slice(cut)}` : kept;
}

/** Month and 4-digit year of an expiry value, or undefined when it does not parse. */
export function parseExpiry(value: string, format: ExpiryFormat): { month: number; year: number } | undefined {
  const [a = '', b = ''] = value.split('/');
  const [first, second] = format.split('/') as [string, string];
  if (a.length !== first.length || b.length !== second.length) return undefined;
  const monthText = first.startsWith('M') ? a : b;
  const yearText = first.startsWith('M') ? b : a;
  const month = Number(monthText);
  const year = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
  if (!Number.isInteger(month) || !Number.isInteger(year) || month < 1 || month > 12) return undefined;
  return { month, year };
}

/** The latest expiry year accepted, counted from the current year (frames and vault alike). */
export const MAX_EXPIRY_YEARS_AHEAD = 20;

/**
 * What is wrong with an expiry, or undefined: a month outside 1–12, a past month (a card is valid
 * through the end of its month), or a year more than {@link MAX_EXPIRY_YEARS_AHEAD} ahead. Judged
 * in UTC so the frames and the vault agree whatever the shopper's time zone.
 */
export function expiryProblem(month: number, year: number, now: Date = new Date()): 'month' | 'expired' | 'too-far' | undefined {
  if (!Number.isInteger(month) || month < 1 || month > 12) return 'month';
  const currentYear = now.getUTCFullYear();
  const currentMonth = now.getUTCMonth() + 1;
  if (year < currentYear || (year === currentYear && month < currentMonth)) return 'expired';
  if (year > currentYear + MAX_EXPIRY_YEARS_AHEAD) return 'too-far';
  return undefined;
}

/** A year alone (separate month and year fields): from this year up to {@link MAX_EXPIRY_YEARS_AHEAD} ahead. */
export function isExpiryYearInRange(year: number, now: Date = new Date()): boolean {
  const currentYear = now.getUTCFullYear();
  return year >= currentYear && year <= currentYear + MAX_EXPIRY_YEARS_AHEAD;
}

/** Not expired and not beyond the accepted range (see {@link expiryProblem}). */
export function isExpiryValid(month: number, year: number, now: Date = new Date()): boolean {
  return expiryProblem(month, year, now) === undefined;
}

export function isMonthValid(value: string): boolean {
  return /^(0[1-9]|1[0-2])$/.test(value);
}
export function parseYear(value: string, format: YearFormat): number | undefined {
  if (value.length !== format.length || !/^\d+$/.test(value)) return undefined;
  return format === 'YY' ? 2000 + Number(value) : Number(value);
}

/** CVV: 3 to 4 digits (input maximum 3, 4 for amex). */
export function cvvMaxLength(network: Network | undefined): number {
  return network === 'amex' ? 4 : 3;
}
export function isCvvValid(value: string): boolean {
  return /^\d{3,4}$/.test(value);
}
/** CVV for a card of this network: 3 digits up to the network's maximum (4 for amex). */
export function isCvvValidFor(value: string, network: Network | undefined): boolean {
  return isCvvValid(value) && value.length <= cvvMaxLength(network);
}
/** PIN: 4 to 12 digits. */
export function isPinValid(value: string): boolean {
  return /^\d{4,12}$/.test(value);
}
/** Cardholder name: letters, spaces, comma, dot, hyphen, apostrophe; at least 2 characters. */
export function isCardholderNameValid(value: string): boolean {
  return /^[\p{L} ,.'-]{2,}$/u.test(value.trim()) && value.trim().length >= 2;
}
