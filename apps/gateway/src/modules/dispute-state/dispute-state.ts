import { CHARGED_BACK_DISPUTE_STATUSES, OPEN_DISPUTE_STATUSES, type DisputeStatus } from '@roots/contracts/gateway';
import { GatewayError } from '../../errors';

/**
 * What can happen to a dispute, whoever reports it (the sandbox, or a processor's notifications:
 * Adyen's CHARGEBACK opens, CHARGEBACK_REVERSED is `win`, SECOND_CHARGEBACK is `lose`).
 */
export type DisputeEvent =
  /** The merchant sent its evidence before the due date. */
  | 'submitEvidence'
  /** The merchant gives the money up without a fight. */
  | 'accept'
  /** The bank decided for the merchant. */
  | 'win'
  /** The bank decided for the cardholder (also a second chargeback after a win). */
  | 'lose'
  /** The due date passed with no answer: the cardholder keeps the money. */
  | 'expire';

/**
 * The dispute state machine (ADR 181): needs_response → under_review (evidence) | accepted |
 * lost (no answer in time); under_review → won | lost; won → lost (a second chargeback). `lost`
 * and `accepted` are final. Throws INVALID_STATE for any other move.
 */
export function disputeTransition(status: DisputeStatus, event: DisputeEvent): DisputeStatus {
  const next = allowedNext(status, event);
  if (!next) throw new GatewayError('INVALID_STATE', `Cannot ${event} a dispute in status ${status}`);
  return next;
}

/** Whether the state machine has a move for `event` from `status` (no throw). */
export function isDisputeMoveAllowed(status: DisputeStatus, event: DisputeEvent): boolean {
  return allowedNext(status, event) !== undefined;
}

function allowedNext(status: DisputeStatus, event: DisputeEvent): DisputeStatus | undefined {
  switch (status) {
    case 'needs_response':
      switch (event) {
        case 'submitEvidence':
          return 'under_review';
        case 'accept':
          return 'accepted';
        case 'expire':
        case 'lose':
          return 'lost';
        case 'win':
          return 'won';
        default:
          return undefined;
      }
    case 'under_review':
      if (event === 'win') return 'won';
      return event === 'lose' ? 'lost' : undefined;
    case 'won':
      return event === 'lose' ? 'lost' : undefined;
    case 'lost':
    case 'accepted':
      return undefined;
    default: {
      const exhaustive: never = status;
      return exhaustive;
    }
  }
}

/** True while the dispute goes on (no decision yet). */
export function isDisputeOpen(status: DisputeStatus): boolean {
  return (OPEN_DISPUTE_STATUSES as readonly string[]).includes(status);
}

/** True when the cardholder got the money back through the bank. */
export function isChargedBack(status: DisputeStatus): boolean {
  return (CHARGED_BACK_DISPUTE_STATUSES as readonly string[]).includes(status);
}

/**
 * Why a refund of a disputed execution is refused, or undefined when it may go ahead (no dispute,
 * or a dispute the merchant won). An open dispute holds the money; a lost or accepted one already
 * gave it back, so a refund would pay the cardholder twice.
 */
export function refundRefusal(status: DisputeStatus | undefined): string | undefined {
  if (status === undefined || status === 'won') return undefined;
  if (isDisputeOpen(status)) return 'This payment is disputed: it cannot be refunded until the dispute ends';
  return 'This payment was charged back: the cardholder already has the money';
}
