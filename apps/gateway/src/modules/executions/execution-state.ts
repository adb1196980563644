import type { ExecutionStatus } from '@roots/contracts/gateway';
import { GatewayError } from '../../errors';

/** What can happen to an execution. */
export type ExecutionEvent =
  /** The shopper (or merchant) asks to authorize. */
  | 'authorize'
  /** The method needs a confirm call (PayPal approval, Google payment data). */
  | 'requireConfirm'
  /** The confirm call arrived. */
  | 'confirm'
  /** Waiting for the shopper elsewhere: 3-D Secure, hosted page, pix. */
  | 'pend'
  | 'succeed'
  | 'fail';

/**
 * The execution state machine (checkout-spec §4): created → authorizeRequested → (confirmRequested
 * → authorizeRequested) → authorizePending | authorizeSuccessful | authorizeFailed; a pending
 * execution later succeeds or fails; a failed one may be authorized again (the shopper retries).
 * Throws INVALID_STATE for any other move.
 */
export function transition(status: ExecutionStatus, event: ExecutionEvent): ExecutionStatus {
  const next = allowedNext(status, event);
  if (!next) throw new GatewayError('INVALID_STATE', `Cannot ${event} an execution in status ${status}`);
  return next;
}

function allowedNext(status: ExecutionStatus, event: ExecutionEvent): ExecutionStatus | undefined {
  switch (status) {
    case 'created':
    case 'authorizeFailed':
      return event === 'authorize' ? 'authorizeRequested' : undefined;
    case 'authorizeRequested':
      switch (event) {
        case 'requireConfirm':
          return 'confirmRequested';
        case 'pend':
          return 'authorizePending';
        case 'succeed':
          return 'authorizeSuccessful';
        case 'fail':
          return 'authorizeFailed';
        default:
          return undefined;
      }
    case 'confirmRequested':
      if (event === 'confirm') return 'authorizeRequested';
      return event === 'fail' ? 'authorizeFailed' : undefined;
    case 'authorizePending':
      if (event === 'succeed') return 'authorizeSuccessful';
      return event === 'fail' ? 'authorizeFailed' : undefined;
    case 'authorizeSuccessful':
      return undefined;
    default: {
      const exhaustive: never = status;
      return exhaustive;
    }
  }
}
