import type { Execution } from '@roots/contracts/gateway';
import {
  CheckoutError,
  CHECKOUT_MESSAGES,
  FAILURE_REASON_MESSAGES,
  failureReasonOf,
  type CheckoutErrorCode,
  type FailureReason,
} from '../core/errors/checkout-error';
import type { PaymentOutcome } from './payment-flow';

/** The internal detail of a failure: for the log and the failure event's cause, never the screen. */
export type FailureCause = { code: CheckoutErrorCode; message: string; status?: number };

/**
 * The failure event (checkout-spec §3, §4): one of the four failure reasons, a message fit for
 * people, and — when an internal error caused it — that error's code and text in `cause`.
 */
export type FailureEvent = { code: FailureReason; message: string; cause?: FailureCause; execution?: Execution };

export type FailureOutcome = Extract<PaymentOutcome, { kind: 'failure' }>;

/**
 * Maps an outcome to its event. An AUTHORIZATION_ERROR outcome comes from the execution (its first
 * error reason, or the spec's texts) and keeps its message; any other code is internal: its reason's
 * spec message is shown and the detail goes to `cause`.
 * @example failureEvent({ kind: 'failure', code: 'VAULT_NETWORK_ERROR', message: 'boom' })
 * // { code: 'AUTHORIZATION_ERROR', message: 'Authorization Failed', cause: { code: 'VAULT_NETWORK_ERROR', message: 'boom' } }
 */
export function failureEvent(outcome: FailureOutcome): FailureEvent {
  const execution = outcome.execution ? { execution: outcome.execution } : {};
  if (outcome.code === 'AUTHORIZATION_ERROR') return { code: 'AUTHORIZATION_ERROR', message: outcome.message, ...execution };
  const reason = failureReasonOf(outcome.code);
  return {
    code: reason,
    message: FAILURE_REASON_MESSAGES[reason],
    cause: { code: outcome.code, message: outcome.message, ...(outcome.status !== undefined ? { status: outcome.status } : {}) },
    ...execution,
  };
}

export type FailureScreenOptions = {
  /** Translations keyed by the failure event's message. */
  translations?: Record<string, string> | undefined;
  /** Shown when the failure is not a known one; default 'Authorization failed, please try again.'. */
  defaultFailureMessage?: string | undefined;
};

/**
 * The failure screen's text (checkout-spec §2): the translation of the event's message when there is
 * one, the execution's own reason for an authorization failure, and the configured default otherwise.
 * Internal text (a status code, a vault answer) never reaches it: it lives only in `cause`.
 */
export function failureScreenText(event: FailureEvent, options: FailureScreenOptions): string {
  const translated = options.translations?.[event.message];
  if (translated !== undefined) return translated;
  if (event.code === 'AUTHORIZATION_ERROR' && event.cause === undefined) return event.message;
  return options.defaultFailureMessage ?? CHECKOUT_MESSAGES.authorizationFailedToast;
}

/** An error as a failure outcome: 401/403 are AUTHENTICATION_ERROR (checkout-spec §8); the status is kept for the cause. */
export function outcomeOfError(error: unknown): FailureOutcome {
  const checkoutError = error instanceof CheckoutError ? error : new CheckoutError('UNKNOWN_ERROR', undefined, { cause: error });
  return {
    kind: 'failure',
    code: checkoutError.code === 'UNAUTHORIZED' ? 'AUTHENTICATION_ERROR' : checkoutError.code,
    message: checkoutError.message,
    ...(checkoutError.status !== undefined ? { status: checkoutError.status } : {}),
  };
}
