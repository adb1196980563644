/**
 * The vault's records endpoint (`POST {vaultURL}/v1/records`): the values of the non-card collect
 * elements (checkout-spec §3 "Collect options") go in, tokens come out. Like `/v1/tokens` it is
 * called only by the gateway-origin secure-field frames, with the session's bearer token and an
 * idempotency key; the vault keeps the values encrypted, per shopper (the session's holder).
 */

import { z } from 'zod';

/** A table or column name: letters, digits and underscores, not starting with a digit. */
const identifierSchema = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'must be letters, digits and underscores');

/** Column names that say "card security code" or "card number" in the usual spellings. */
const CARD_COLUMN = /(?:^|_)(?:cvc2?|cvv2?|cvn|cid|csc|security_?code|card_?(?:number|no|num|code)|pan|cc_?num(?:ber)?)(?:_|$)/i;
/** 13–19 digits, optionally grouped by spaces or dashes, as a card number is written. */
const DIGIT_RUN = /\d(?:[ -]?\d){12,18}/g;

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
 * Whether a generic record field holds card data (issue 17): a column named for a card number or
 * security code, or a value holding a Luhn-valid 13–19 digit number. Card data goes only through
 * the card frames and `/v1/tokens`, never into generic records or back to a merchant in clear.
 * @example holdsCardData('note', '4242 4242 4242 4242') // true
 */
export function holdsCardData(column: string, value: string): boolean {
  if (CARD_COLUMN.test(column)) return true;
  for (const match of value.matchAll(DIGIT_RUN)) {
    if (passesLuhn(match[0].replace(/[ -]/g, ''))) return true;
  }
  return false;
}

/** One record to store: a table and its fields; `skyflowID` names an existing record to update. */
export const vaultRecordInputSchema = z.object({
  table: identifierSchema,
  fields: z
    .record(identifierSchema, z.string().max(4_096))
    .refine((fields) => Object.keys(fields).length > 0, 'must hold at least one field')
    .refine((fields) => Object.keys(fields).length <= 50, 'at most 50 fields')
    .refine((fields) => !Object.entries(fields).some(([column, value]) => holdsCardData(column, value)), {
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
