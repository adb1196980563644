/**
 * The vault's records endpoint (`POST {vaultURL}/v1/records`): the values of the non-card collect
 * elements (checkout-spec §3 "Collect options") go in, tokens come out. Like `/v1/tokens` it is
 * called only by the gateway-origin secure-field frames, with the session's bearer token and an
 * idempotency key; the vault keeps the values encrypted, per shopper (the session's holder).
 */

import { z } from 'zod';

/** A table or column name: letters, digits and underscores, not starting with a digit. */
const identifierSchema = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'must be letters, digits and underscores');

/**
 * Column names that say "card number" or "card security code", whatever the case, separators or
 * suffixes (`card_number`, `cardNumberX`, `CCNum2`): looked for in the name squashed to lowercase
 * letters and digits, and, for short words that occur inside others (`pan` in `company`), as whole
 * words of the name.
 */
const CARD_COLUMN_SQUASHED = /card(?:number|num|no\b|code|digits)|creditcard|ccnum|securitycode|cvv|cvc/;
const CARD_COLUMN_WORDS = new Set(['pan', 'cid', 'csc', 'cvn', 'cc']);

function namesCardData(column: string): boolean {
  const squashed = column.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (CARD_COLUMN_SQUASHED.test(squashed)) return true;
  const words = column
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  return words.some((word) => CARD_COLUMN_WORDS.has(word));
}

/**
 * `value` with every Unicode decimal digit (full-width, Arabic-Indic, mathematical…) as its ASCII
 * digit: each script's digits are a run of ten code points from zero, so the value is the distance
 * from the run's start.
 */
export function asciiDigits(value: string): string {
  // NFKC already makes full-width and mathematical digits ASCII; the rest are each a script's own run.
  return value.normalize('NFKC').replace(/\p{Nd}/gu, (digit) => {
    const point = digit.codePointAt(0)!;
    let zero = point;
    while (point - zero < 9 && /\p{Nd}/u.test(String.fromCodePoint(zero - 1))) zero -= 1;
    return String(point - zero);
  });
}

function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * True when a run of digits is a card number: a run of 13–19 digits that passes Luhn, or a longer
 * run that starts or ends with one (a number written against its expiry date or a reference).
 */
function holdsLuhnRun(digits: string): boolean {
  for (const match of digits.matchAll(/\d{13,}/g)) {
    const run = match[0];
    if (run.length <= 19) {
      if (passesLuhn(run)) return true;
      continue;
    }
    for (let length = 13; length <= 19; length += 1) {
      if (passesLuhn(run.slice(0, length)) || passesLuhn(run.slice(-length))) return true;
    }
  }
  return false;
}

/**
 * Whether some run of adjacent digit groups, joined, is a card number: 13–19 digits starting with
 * 2–6 (the industry digit of the networks a card can belong to; phone numbers with a leading 0, and
 * postcodes and references starting 1, 7–9, are not) that pass Luhn.
 */
function groupsHoldCardNumber(groups: readonly string[]): boolean {
  for (let start = 0; start < groups.length; start += 1) {
    let joined = '';
    for (let end = start; end < groups.length && joined.length < 19; end += 1) {
      joined += groups[end];
      if (/^[2-6]\d{12,18}$/.test(joined) && passesLuhn(joined)) return true;
    }
  }
  return false;
}

/**
 * The digit groups of a value written with short separators of any kind, letters included
 * (`4242x4242x4242x4242`, `4242 and 4242…`): a run of 1–3 other characters joins two groups into one
 * chain, a longer one ends the chain (issue 32). Answers each chain's groups.
 */
function separatedChains(value: string): string[][] {
  return asciiDigits(value)
    .split(/\D{4,}/)
    .map((chain) => chain.split(/\D+/).filter(Boolean));
}

/** The value's digits with separators dropped: `4242.4242.4242.4242`, `４２４２ ４２４２…` → `4242424242424242`. */
function digitsOf(value: string): string {
  return asciiDigits(value).replace(/[^\p{L}\d]+/gu, '');
}

/**
 * Whether a generic record field holds card data (issues 17 and 22): a column named for a card
 * number or security code, or a value holding a Luhn-valid 13–19 digit number once Unicode digits
 * are made ASCII and separators (spaces, dots, dashes, anything not a letter or digit) dropped, or
 * one of 13–19 digits starting 2–6 written in groups with 1–3 characters of any kind between them
 * (`4242x4242x4242x4242`).
 * Card data goes only through the card frames and `/v1/tokens`, never into generic records or back
 * to a merchant in clear.
 * @example holdsCardData('note', '4242.4242.4242.4242') // true
 */
export function holdsCardData(column: string, value: string): boolean {
  if (namesCardData(column)) return true;
  return holdsLuhnRun(digitsOf(value)) || separatedChains(value).some(groupsHoldCardNumber);
}

/**
 * Whether a record holds card data in any field, or split over fields in a row that hold only
 * digits and separators (`first: '4242 4242'`, `second: '4242 4242'`, or four fields of four digits).
 */
export function recordHoldsCardData(fields: Readonly<Record<string, string>>): boolean {
  const entries = Object.entries(fields);
  if (entries.some(([column, value]) => holdsCardData(column, value))) return true;
  const digitGroups = entries.map(([, value]) => (/^[^\p{L}]*$/u.test(value) ? digitsOf(value) : ''));
  // Two parts of 4–12 digits making 13–19 together: the halves of one number.
  const part = (digits: string | undefined) => digits !== undefined && /^\d{4,12}$/.test(digits);
  const halves = digitGroups.some((digits, index) => {
    const next = digitGroups[index + 1];
    if (!part(digits) || !part(next)) return false;
    const joined = digits + next!;
    return joined.length >= 13 && joined.length <= 19 && passesLuhn(joined);
  });
  // More parts (issue 32): the fields in a row that hold digits only, joined as one number's groups.
  const chains = digitGroups
    .map((digits) => (/^\d{1,12}$/.test(digits) ? digits : '|'))
    .join(',')
    .split('|')
    .map((chain) => chain.split(',').filter(Boolean));
  return halves || chains.some(groupsHoldCardNumber);
}

/** One record to store: a table and its fields; `skyflowID` names an existing record to update. */
export const vaultRecordInputSchema = z.object({
  table: identifierSchema,
  fields: z
    .record(identifierSchema, z.string().max(4_096))
    .refine((fields) => Object.keys(fields).length > 0, 'must hold at least one field')
    .refine((fields) => Object.keys(fields).length <= 50, 'at most 50 fields')
    .refine((fields) => !recordHoldsCardData(fields), {
      error: 'must not hold card data (card number or security code): cards are collected by the card fields only',
    }),
  skyflowID: z.string().min(1).max(64).optional(),
});
export type VaultRecordInput = z.infer<typeof vaultRecordInputSchema>;

export const vaultRecordsRequestSchema = z.object({
  records: z.array(vaultRecordInputSchema).min(1).max(20),
  /** Answer a token per field (default true); false answers only the record ids. */
  tokens: z.boolean().default(true),
  /** Update instead of insert when a record of `table` already holds the same `column` value (for this shopper). */
  upsert: z
    .array(z.object({ table: identifierSchema, column: identifierSchema }))
    .max(20)
    .optional(),
});
export type VaultRecordsRequest = z.infer<typeof vaultRecordsRequestSchema>;
export type VaultRecordsRequestInput = z.input<typeof vaultRecordsRequestSchema>;

/** One stored record: its id, and with `tokens` a token per field sent (never the values). */
export const vaultRecordResultSchema = z.object({
  table: z.string(),
  skyflowID: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
});
export type VaultRecordResult = z.infer<typeof vaultRecordResultSchema>;

export const vaultRecordsResponseSchema = z.object({ records: z.array(vaultRecordResultSchema) });
export type VaultRecordsResponse = z.infer<typeof vaultRecordsResponseSchema>;

/** Merchant API `GET /merchant/v1/records/:id?holderReference=`: a stored record in clear, server-to-server only. */
export const merchantVaultRecordSchema = z.object({
  skyflowID: z.string(),
  table: z.string(),
  fields: z.record(z.string(), z.string()),
});
export type MerchantVaultRecord = z.infer<typeof merchantVaultRecordSchema>;
