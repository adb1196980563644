import type { Execution } from '@roots/contracts/gateway';
import { CHECKOUT_MESSAGES } from '../errors/checkout-error';

/** What the SDK does next with an execution it has just read. */
export type ExecutionStep =
  | { kind: 'poll' }
  | { kind: 'confirm' }
  | { kind: 'success' }
  | { kind: 'pending' }
  | { kind: 'redirect'; url: string }
  | { kind: 'threeDS'; href: string; mode: 'popup' | 'redirect'; messageOrigin: string }
  | { kind: 'googlePay3DS'; href: string }
  | { kind: 'failure'; code: 'AUTHORIZATION_ERROR'; message: string };

export type StepContext = {
  /** True once a 3-D Secure challenge was completed: a failure then says so. */
  afterChallenge?: boolean;
};

/** The failure message: the first error reason, or 'Authorization Failed' (checkout-spec §8). */
export function failureMessage(execution: Pick<Execution, 'finalState'>, context: StepContext = {}): string {
  if (context.afterChallenge) return CHECKOUT_MESSAGES.authorizationFailedAfter3ds;
  return execution.finalState?.errors[0]?.reason.result || CHECKOUT_MESSAGES.authorizationFailed;
}

/**
 * The payment execution state machine of checkout-spec §4, as one pure function: from the
 * execution just read, the next step. Exhaustive over the statuses.
 */
export function nextStep(
  execution: Pick<Execution, 'status' | 'links' | 'finalState' | 'paymentMethodCode'>,
  context: StepContext = {},
): ExecutionStep {
  const status = execution.status;
  switch (status) {
    case 'created':
    case 'authorizeRequested':
      return { kind: 'poll' };
    case 'confirmRequested':
      return { kind: 'confirm' };
    case 'authorizeSuccessful':
      return { kind: 'success' };
    case 'authorizeFailed':
      return { kind: 'failure', code: 'AUTHORIZATION_ERROR', message: failureMessage(execution, context) };
    case 'authorizePending': {
      const links = execution.links;
      if (links.redirect) return { kind: 'redirect', url: links.redirect };
      if (links.threeDS) {
        if (execution.paymentMethodCode === 'googlePay') return { kind: 'googlePay3DS', href: links.threeDS.href };
        if (context.afterChallenge) return { kind: 'pending' };
        return { kind: 'threeDS', href: links.threeDS.href, mode: links.threeDS.mode, messageOrigin: links.threeDS.messageOrigin };
      }
      return { kind: 'pending' };
    }
    default: {
      const unreachable: never = status;
      return { kind: 'failure', code: 'AUTHORIZATION_ERROR', message: `${CHECKOUT_MESSAGES.authorizationFailed} (${String(unreachable)})` };
    }
  }
}

/** 3-D Secure popup size by screen width (checkout-spec §9: 250x400, 390x400, 500x600, 600x400). */
export function threeDsPopupSize(screenWidth: number): { width: number; height: number } {
  if (screenWidth < 390) return { width: 250, height: 400 };
  if (screenWidth < 500) return { width: 390, height: 400 };
  if (screenWidth < 600) return { width: 500, height: 600 };
  return { width: 600, height: 400 };
}
