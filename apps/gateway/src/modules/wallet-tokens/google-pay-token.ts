import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Payment tokens of the Google-type wallet stand-in. A real Google Pay token (`ECv2`) is a JSON
 * string holding a `signedMessage` and its `signature`, which the gateway checks and decrypts. The
 * sandbox keeps that shape, signs with its own secret instead of Google's keys, and leaves the
 * message in clear: it names one of the wallet's sandbox cards, never a card number.
 */

/** What a sandbox wallet card does when paid with. */
export type GooglePayScenario = 'success' | 'challenge' | 'decline';

export type GooglePaySandboxCard = {
  id: string;
  /** Google's network names (API 2.0 `cardNetwork`). */
  network: 'VISA' | 'MASTERCARD' | 'AMEX';
  last4: string;
  scenario: GooglePayScenario;
  /** Shown on the sandbox sheet. */
  description: string;
};

/** The cards the sandbox wallet "holds" (the shopper picks one on the sheet). */
export const GOOGLE_PAY_SANDBOX_CARDS: readonly GooglePaySandboxCard[] = [
  { id: 'visa-4242', network: 'VISA', last4: '4242', scenario: 'success', description: 'Visa •••• 4242' },
  { id: 'mastercard-3220', network: 'MASTERCARD', last4: '3220', scenario: 'challenge', description: 'Mastercard •••• 3220 (3-D Secure)' },
  { id: 'visa-0002', network: 'VISA', last4: '0002', scenario: 'decline', description: 'Visa •••• 0002 (declined)' },
];

/** A token is good for this long after it is made (Google's `messageExpiration`). */
export const GOOGLE_PAY_TOKEN_TTL_MS = 60 * 60_000;
export const GOOGLE_PAY_PROTOCOL_VERSION = 'ECv2';

type SignedMessage = { gatewayMerchantId: string; messageExpiration: string; paymentMethod: 'CARD'; cardId: string };

function sign(secret: string, message: string): string {
  return createHmac('sha256', secret).update(`google-pay:${message}`).digest('base64');
}

/** Mints the `tokenizationData.token` string for a sandbox card. */
export function mintGooglePayToken(input: { cardId: string; gatewayMerchantId: string; secret: string; now?: Date }): string {
  const message: SignedMessage = {
    gatewayMerchantId: input.gatewayMerchantId,
    messageExpiration: String((input.now ?? new Date()).getTime() + GOOGLE_PAY_TOKEN_TTL_MS),
    paymentMethod: 'CARD',
    cardId: input.cardId,
  };
  const signedMessage = JSON.stringify(message);
  return JSON.stringify({ protocolVersion: GOOGLE_PAY_PROTOCOL_VERSION, signature: sign(input.secret, signedMessage), signedMessage });
}

export type GooglePayTokenCheck = { ok: true; card: GooglePaySandboxCard } | { ok: false; reason: string };

/** Checks a token as a gateway would: shape, protocol, signature, merchant, expiry, then the card. */
export function verifyGooglePayToken(
  token: unknown,
  expected: { gatewayMerchantId: string; secret: string; now?: Date },
): GooglePayTokenCheck {
  if (typeof token !== 'string' || token.length > 4_096)
    return { ok: false, reason: 'the payment token must be the tokenizationData.token string' };
  let envelope: { protocolVersion?: unknown; signature?: unknown; signedMessage?: unknown };
  try {
    envelope = JSON.parse(token) as typeof envelope;
  } catch {
    return { ok: false, reason: 'the payment token is not JSON' };
  }
  if (envelope.protocolVersion !== GOOGLE_PAY_PROTOCOL_VERSION) return { ok: false, reason: 'unsupported protocolVersion' };
  if (typeof envelope.signedMessage !== 'string' || typeof envelope.signature !== 'string')
    return { ok: false, reason: 'signedMessage and signature are required' };
  const expectedSignature = Buffer.from(sign(expected.secret, envelope.signedMessage));
  const given = Buffer.from(envelope.signature);
  if (given.length !== expectedSignature.length || !timingSafeEqual(given, expectedSignature))
    return { ok: false, reason: 'the signature does not verify' };
  const message = JSON.parse(envelope.signedMessage) as Partial<SignedMessage>;
  if (message.gatewayMerchantId !== expected.gatewayMerchantId) return { ok: false, reason: 'the token is for another merchant' };
  if (Number(message.messageExpiration) <= (expected.now ?? new Date()).getTime()) return { ok: false, reason: 'the token has expired' };
  const card = GOOGLE_PAY_SANDBOX_CARDS.find((candidate) => candidate.id === message.cardId);
  return card ? { ok: true, card } : { ok: false, reason: 'unknown card' };
}
