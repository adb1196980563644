import type { Execution } from '@roots/contracts/gateway';

/**
 * Where a shopper's payment stands, before anything is read from it: still deciding at the gateway,
 * declined, or not the shopper's at all (a charge we made ourselves). Undefined: paid by the shopper.
 * The purchase and the card update ask it first (one reading of the execution state machine).
 */
export function shopperPaymentProblem(execution: Execution): 'pending' | 'not-successful' | 'merchant-initiated' | undefined {
  switch (execution.status) {
    case 'authorizeSuccessful':
      return execution.merchantInitiated ? 'merchant-initiated' : undefined;
    case 'created':
    case 'authorizeRequested':
    case 'confirmRequested':
    case 'authorizePending':
      return 'pending';
    case 'authorizeFailed':
      return 'not-successful';
    default: {
      const exhaustive: never = execution.status;
      return exhaustive;
    }
  }
}
