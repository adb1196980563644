import type { DeclineCode, DisputeReason } from '@roots/contracts/gateway';

/**
 * What the sandbox does with a card payment, decided at authorize: a test card with a special
 * behaviour wins; otherwise the cardholder-name trigger, then the amount trigger; otherwise the
 * card's own (success). Documented in the README.
 */
export type CardScenario =
  | { kind: 'success' }
  | { kind: 'decline'; code: DeclineCode }
  /** 3-D Secure challenge, then `after` (success unless a decline code is given). */
  | { kind: 'challenge'; after?: DeclineCode }
  /** 3-D Secure passed without a challenge: success. */
  | { kind: 'frictionless' }
  /** Stays `authorizeRequested` for GATEWAY_SLOW_AUTH_POLLS polls, then success. */
  | { kind: 'slow' }
  /** Success, then the cardholder's bank disputes the payment at once (a dispute in `needs_response`). */
  | { kind: 'dispute'; reason: DisputeReason };

export type TestCard = {
  number: string;
  network: string;
  /** What a payment with the shopper present (or a zero-amount verification) does. */
  scenario: CardScenario;
  /** What a merchant-initiated charge (renewal, one-click offer) does, when it differs from `scenario`. */
  merchantInitiated?: CardScenario;
  description: string;
};

/** The documented test cards (README "Test cards"); numbers follow Stripe's where Stripe has one. */
export const TEST_CARDS: readonly TestCard[] = [
  { number: '4242424242424242', network: 'visa', scenario: { kind: 'success' }, description: 'Success' },
  { number: '5555555555554444', network: 'mastercard', scenario: { kind: 'success' }, description: 'Success' },
  { number: '378282246310005', network: 'amex', scenario: { kind: 'success' }, description: 'Success (CVV 4 digits)' },
  { number: '6011111111111117', network: 'discover', scenario: { kind: 'success' }, description: 'Success' },
  { number: '3056930009020004', network: 'diners', scenario: { kind: 'success' }, description: 'Success' },
  { number: '3566002020360505', network: 'jcb', scenario: { kind: 'success' }, description: 'Success' },
  { number: '6200000000000005', network: 'unionpay', scenario: { kind: 'success' }, description: 'Success' },
  { number: '6062826786276634', network: 'hipercard', scenario: { kind: 'success' }, description: 'Success' },
  { number: '6759649826438453', network: 'maestro', scenario: { kind: 'success' }, description: 'Success' },
  { number: '4000007600000001', network: 'visa', scenario: { kind: 'success' }, description: 'Success, issued in Brazil (BIN lookup BR)' },
  { number: '4000082600000004', network: 'visa', scenario: { kind: 'success' }, description: 'Success, issued in the United Kingdom (GB)' },
  { number: '4000000000000002', network: 'visa', scenario: { kind: 'decline', code: 'card_declined' }, description: 'Generic decline' },
  {
    number: '4000000000009995',
    network: 'visa',
    scenario: { kind: 'decline', code: 'insufficient_funds' },
    description: 'Insufficient funds',
  },
  {
    number: '4000000000000069',
    network: 'visa',
    scenario: { kind: 'decline', code: 'expired_card' },
    description: 'Expired card (declined by the issuer)',
  },
  { number: '4000000000000127', network: 'visa', scenario: { kind: 'decline', code: 'incorrect_cvc' }, description: 'Incorrect CVC' },
  { number: '4000000000000119', network: 'visa', scenario: { kind: 'decline', code: 'processing_error' }, description: 'Processing error' },
  {
    number: '4000000000003220',
    network: 'visa',
    scenario: { kind: 'challenge' },
    description: '3-D Secure challenge required, then success',
  },
  {
    number: '4000008400001629',
    network: 'visa',
    scenario: { kind: 'challenge', after: 'card_declined' },
    description: '3-D Secure challenge required, then declined',
  },
  {
    number: '4000000000003055',
    network: 'visa',
    scenario: { kind: 'frictionless' },
    description: 'Frictionless 3-D Secure (no challenge), success',
  },
  {
    // The sandbox's own number (Stripe's 4000000000000341 is the hard-decline variant): a card that
    // pays and verifies while the shopper is there, then runs dry, so a renewal is soft-declined.
    number: '4000000000009953',
    network: 'visa',
    scenario: { kind: 'success' },
    merchantInitiated: { kind: 'decline', code: 'insufficient_funds' },
    description: 'Success with the shopper present; merchant-initiated charges declined: insufficient funds',
  },
  {
    number: '4000000000000036',
    network: 'visa',
    scenario: { kind: 'slow' },
    description: 'Slow authorization: authorizeRequested for N polls, then success',
  },
  {
    // Stripe's "dispute: fraudulent" card. With the shopper present or not, the payment succeeds.
    number: '4000000000000259',
    network: 'visa',
    scenario: { kind: 'dispute', reason: 'fraudulent' },
    description: 'Success, then a dispute opens at once (reason fraudulent, evidence due in 7 days)',
  },
];

/** Cardholder-name triggers (trimmed, case-insensitive, exact). */
export const NAME_TRIGGERS: Readonly<Record<string, CardScenario>> = {
  DECLINE: { kind: 'decline', code: 'card_declined' },
  'INSUFFICIENT FUNDS': { kind: 'decline', code: 'insufficient_funds' },
  'EXPIRED CARD': { kind: 'decline', code: 'expired_card' },
  'INCORRECT CVC': { kind: 'decline', code: 'incorrect_cvc' },
  'PROCESSING ERROR': { kind: 'decline', code: 'processing_error' },
  CHALLENGE: { kind: 'challenge' },
  FRICTIONLESS: { kind: 'frictionless' },
  SLOW: { kind: 'slow' },
};

/** Amount triggers, in minor units (inclusive ranges): 2000.00–2999.99 declines, and so on. */
export const AMOUNT_TRIGGERS: ReadonlyArray<{ from: number; to: number; scenario: CardScenario }> = [
  { from: 200_000, to: 299_999, scenario: { kind: 'decline', code: 'card_declined' } },
  { from: 300_000, to: 300_099, scenario: { kind: 'decline', code: 'processing_error' } },
  { from: 400_000, to: 400_099, scenario: { kind: 'decline', code: 'insufficient_funds' } },
  { from: 500_000, to: 500_099, scenario: { kind: 'challenge' } },
];

const CARD_BY_NUMBER = new Map(TEST_CARDS.map((card) => [card.number, card.scenario]));
const MERCHANT_INITIATED_BY_NUMBER = new Map(
  TEST_CARDS.flatMap((card) => (card.merchantInitiated ? [[card.number, card.merchantInitiated] as const] : [])),
);

/** Name and amount triggers alone: wallets and other methods without a card number use these. */
export function triggerScenario(input: { holderName?: string | undefined; amountValue: number }): CardScenario | undefined {
  const byName = input.holderName ? NAME_TRIGGERS[input.holderName.trim().toUpperCase()] : undefined;
  if (byName) return byName;
  return AMOUNT_TRIGGERS.find((trigger) => input.amountValue >= trigger.from && input.amountValue <= trigger.to)?.scenario;
}

/**
 * The scenario for a card payment; unknown valid cards succeed. `merchantInitiated`: a charge without
 * the shopper, where a card's own merchant-initiated behaviour (if it has one) applies.
 */
export function cardScenario(input: {
  number: string;
  holderName?: string | undefined;
  amountValue: number;
  merchantInitiated?: boolean;
}): CardScenario {
  const byCard = (input.merchantInitiated ? MERCHANT_INITIATED_BY_NUMBER.get(input.number) : undefined) ?? CARD_BY_NUMBER.get(input.number);
  if (byCard && byCard.kind !== 'success') return byCard;
  return triggerScenario(input) ?? byCard ?? { kind: 'success' };
}

/** Shopper-facing text of each decline (`finalState.errors[0].reason.result`). */
export const DECLINE_MESSAGES: Record<DeclineCode, string> = {
  card_declined: 'Your card was declined.',
  insufficient_funds: 'Your card has insufficient funds.',
  expired_card: 'Your card has expired.',
  incorrect_cvc: "Your card's security code is incorrect.",
  processing_error: 'An error occurred while processing your card. Try again in a little bit.',
  authentication_failed: 'Authorization failed after 3DS challenge.',
  payment_canceled: 'The payment was canceled.',
  payment_expired: 'The payment expired before it was completed.',
};
