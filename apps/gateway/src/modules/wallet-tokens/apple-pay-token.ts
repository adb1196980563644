import { createHash } from 'node:crypto';
import type { CardNetwork } from '@roots/contracts/gateway';
import { luhn } from '@roots/secure-fields/card-rules';
import { z } from 'zod';

/**
 * Apple-type wallet payment tokens (`PKPaymentToken`, Apple Pay on the Web version 3). A real token
 * carries `paymentData` encrypted for the merchant's payment-processing key (`EC_v1` or `RSA_v1`),
 * the card's `paymentMethod` (display name such as "Visa 0224", network, type) and a
 * `transactionIdentifier`. A real provider decrypts `paymentData` to a device account number (a
 * network token) with its expiry and keeps it for merchant-initiated charges. The sandbox holds no
 * Apple key: it reads the shape and derives a stable sandbox network token from the token's own
 * fields, so a stored Apple-type instrument renews and pays add-ons like a stored card.
 */
export const applePayTokenSchema = z.object({
  paymentData: z.object({
    version: z.enum(['EC_v1', 'RSA_v1']),
    data: z.string().min(1).max(8_192),
    signature: z.string().min(1).max(8_192),
    header: z.object({
      ephemeralPublicKey: z.string().max(1_024).optional(),
      wrappedKey: z.string().max(2_048).optional(),
      publicKeyHash: z.string().min(1).max(256),
      transactionId: z.string().min(1).max(256),
    }),
  }),
  paymentMethod: z.object({
    displayName: z.string().max(100),
    network: z.string().min(1).max(40),
    type: z.enum(['debit', 'credit', 'prepaid', 'store']),
  }),
  transactionIdentifier: z.string().min(1).max(256),
});
export type ApplePayToken = z.infer<typeof applePayTokenSchema>;

/** Apple's network names (`PKPaymentNetwork`, as `paymentMethod.network` spells them) → ours. */
const NETWORKS: Readonly<Record<string, { network: CardNetwork; prefix: string; length: number }>> = {
  visa: { network: 'visa', prefix: '4', length: 16 },
  mastercard: { network: 'mastercard', prefix: '5', length: 16 },
  amex: { network: 'amex', prefix: '37', length: 15 },
  discover: { network: 'discover', prefix: '6011', length: 16 },
};

/** A device account number the sandbox derives for a token: what a provider keeps after decrypting. */
export type ApplePayNetworkToken = { number: string; network: CardNetwork; last4: string; expiryMonth: number; expiryYear: number };

export type ApplePayTokenCheck = { ok: true; card: ApplePayNetworkToken } | { ok: false; reason: string };

/** Network tokens last this long in the sandbox (real ones carry their own expiry). */
const NETWORK_TOKEN_YEARS = 3;

/**
 * Checks an Apple-type token's shape and derives its sandbox network token: the card network from
 * `paymentMethod.network`, the last four digits from the display name when it ends in them, the
 * rest from a digest of the encrypted payload (stable for one token, different across tokens).
 */
export function applePayNetworkToken(token: unknown, now = new Date()): ApplePayTokenCheck {
  const parsed = applePayTokenSchema.safeParse(token);
  if (!parsed.success)
    return { ok: false, reason: 'an Apple Pay payment token (paymentData, paymentMethod, transactionIdentifier) is required' };
  const { paymentData, paymentMethod } = parsed.data;
  const scheme = NETWORKS[paymentMethod.network.toLowerCase()];
  if (!scheme) return { ok: false, reason: `card network ${paymentMethod.network} is not supported` };
  const digest = createHash('sha256').update(`${paymentData.header.transactionId}.${paymentData.data}`).digest();
  const digits = Array.from(digest, (byte) => String(byte % 10)).join('');
  const middleLength = scheme.length - scheme.prefix.length - 5;
  const head = `${scheme.prefix}${digits.slice(0, middleLength)}`;
  const last4 = /(\d{4})$/.exec(paymentMethod.displayName)?.[1] ?? digits.slice(middleLength, middleLength + 4);
  // One digit before the last four balances the Luhn sum (every digit 0–9 gives a different sum).
  const number = Array.from({ length: 10 }, (_, digit) => `${head}${digit}${last4}`).find((candidate) => luhn(candidate)) ?? '';
  return {
    ok: true,
    card: { number, network: scheme.network, last4, expiryMonth: 12, expiryYear: now.getUTCFullYear() + NETWORK_TOKEN_YEARS },
  };
}
