import type { DeclineCode, DisputeReason } from '@roots/contracts/gateway';
import type { ProcessorState, ProcessorToken } from '../../db/schema';
import type { CardSecret } from '../vault/card-cipher';

/**
 * The seam between executions and whoever moves the money (ADR 173). The executions service owns
 * the state machine, the vault, the pages and the webhooks; a processor only answers what happened
 * to one request. A new processor (Stripe, Checkout.com) is one more folder beside `sandbox/` and
 * `adyen/` implementing this interface.
 */
export interface PaymentProcessor {
  readonly name: 'sandbox' | 'adyen';
  /** A shopper-present card payment (3-D Secure may follow), storing the card when asked. */
  authorize(input: CardPayment): Promise<ProcessorResult>;
  /** Finishes a 3-D Secure redirect with what the issuer sent back (Adyen's `redirectResult`). */
  finishChallenge(input: ChallengeReturn): Promise<ProcessorResult>;
  /** A merchant-initiated charge on a stored card (renewal, one-click add-on): never 3-D Secure. */
  chargeStored(input: StoredCharge): Promise<ProcessorResult>;
  /** Refunds all or part of a successful payment; the remainder stays refundable. */
  refund(input: RefundInput): Promise<RefundResult>;
  /** Cancels an authorization that will not be completed (an abandoned 3-D Secure challenge). */
  cancel(input: CancelInput): Promise<void>;
  /** The outcome of a request whose answer was lost (timeouts, 5xx): asked again, the same way. */
  read(input: CardPayment | StoredCharge): Promise<ProcessorResult>;
}

/** The execution as a processor sees it: its id (the merchant reference), amount and state there. */
export type PaymentContext = {
  executionId: string;
  /** Our customer (the session's holder); processors derive their shopper reference from it. */
  holderReference: string;
  amount: { value: number; currency: string };
  /** The execution's processor state (null before its first request). */
  state: ProcessorState | null;
};

export type CardPayment = PaymentContext & {
  /** From the vault, decrypted for this call only; never logged, never stored elsewhere. */
  card: CardSecret;
  storeInstrument: boolean;
  /** Where the issuer sends the shopper back after a 3-D Secure redirect. */
  returnUrl: string;
  /** What the shopper's browser sent (3-D Secure browser data), when known. */
  shopper?: { userAgent?: string | undefined; acceptHeader?: string | undefined; ip?: string | undefined };
};

export type StoredCharge = PaymentContext & {
  card: CardSecret;
  /** The processor's reference of the stored card, when it has one. */
  token: ProcessorToken | null;
  reason: 'recurring' | 'unscheduled';
  /** Required by some processors on every payment (Adyen); nobody is sent there. */
  returnUrl: string;
};

export type ChallengeReturn = PaymentContext & { details: Record<string, string> };

/**
 * `reference` is the same for a retry of the same refund (execution, what was refunded before,
 * this amount): it is the refund's idempotency key at the processor.
 */
export type RefundInput = PaymentContext & { reference: string; refund: { value: number; currency: string }; pspReference?: string };

export type CancelInput = PaymentContext & { pspReference: string };

export type RefundResult = { reference?: string };

/**
 * What a processor answers. `state` is what the executions service keeps on the execution
 * (references, the attempt its idempotency keys derive from); card data never.
 */
export type ProcessorResult = { state?: ProcessorState; storedToken?: ProcessorToken } & (
  | { kind: 'authorised'; dispute?: DisputeReason }
  | { kind: 'refused'; code: DeclineCode }
  /** 3-D Secure: the sandbox's one-time code page (then `after`), or the issuer's page by redirect. */
  | {
      kind: 'challenge';
      after?: DeclineCode;
      redirect?: { url: string; method: 'GET' | 'POST'; data?: Record<string, string> };
    }
  /** Accepted, outcome later: the sandbox's slow authorization (after polls), a processor's `Received`/`Pending`. */
  | { kind: 'processing'; settleAfterPolls?: number }
  /** No answer after the retries: the execution stays open and is settled later by {@link PaymentProcessor.read}. */
  | { kind: 'unknown' }
);

/**
 * What a processor tells afterwards (Adyen's notifications; a Stripe or Checkout.com webhook would
 * map to the same), about a payment it knows by `paymentReference`. Applied once each.
 */
export type ProcessorEvent = {
  paymentReference: string;
  /** Our execution id, as the processor echoes it (the payment's merchant reference). */
  executionId?: string | undefined;
} & (
  | { type: 'authorisation'; success: boolean; declineCode?: DeclineCode | undefined; storedToken?: ProcessorToken | undefined }
  | { type: 'cancellation'; success: boolean }
  /** A refund the processor could not make after all: the amount becomes refundable again. */
  | { type: 'refundFailed'; refundReference: string }
  | { type: 'dispute'; stage: 'opened' | 'won' | 'lost'; reason: DisputeReason }
);

/** The processor could not be reached for a call that changes nothing until it answers (refund, cancel). */
export class ProcessorUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ProcessorUnavailableError';
  }
}
