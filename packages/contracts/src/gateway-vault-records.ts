/**
 * The vault's records endpoint (`POST {vaultURL}/v1/records`): the values of the non-card collect
 * elements (checkout-spec §3 "Collect options") go in, tokens come out. Like `/v1/tokens` it is
 * called only by the gateway-origin secure-field frames, with the session's bearer token and an
 * idempotency key; the vault keeps the values encrypted, per shopper (the session's holder).
 */

import { z } from 'zod';

/** A table or column name: letters, digits and underscores, not starting with a digit. */
const identifierSchema = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'must be letters, digits and underscores');

/** One record to store: a table and its fields; `skyflowID` names an existing record to update. */
export const vaultRecordInputSchema = z.object({
  table: identifierSchema,
  fields: z
    .record(identifierSchema, z.string().max(4_096))
    .refine((fields) => Object.keys(fields).length > 0, 'must hold at least one field')
    .refine((fields) => Object.keys(fields).length <= 50, 'at most 50 fields'),
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
