import type { SubscriptionStatus } from '@roots/contracts/subscriptions';
import { periodEnd, type PlanTerms } from '../terms/plan-terms';

/** Where a subscription stands the moment it is bought. */
export type InitialState = {
  status: SubscriptionStatus;
  currentPeriod: number;
  currentPeriodStart: Date;
  currentPeriodEnd: Date | null;
  dueAt: Date | null;
};

/**
 * The state a purchase starts in, from the terms its buyer agreed to (issue 33): a recurring plan
 * with a trial starts `trialing`, everything else `active`; period 0 runs for the first period
 * (none for a lifetime purchase). Recurring: charged again at its end; one-month purchases: expire
 * then; lifetime: never due.
 */
export function initialState(terms: Pick<PlanTerms, 'recurring' | 'hasTrial' | 'firstPeriod'>, boughtAt: Date): InitialState {
  const end = terms.firstPeriod ? periodEnd(boughtAt, terms.firstPeriod) : null;
  return {
    status: terms.recurring && terms.hasTrial ? 'trialing' : 'active',
    currentPeriod: 0,
    currentPeriodStart: boughtAt,
    currentPeriodEnd: end,
    dueAt: end,
  };
}

/**
 * What can happen to a subscription. Every status change goes through {@link transition}.
 * - `renewal_succeeded`: a period was paid (trial conversion, renewal, or a recovered retry).
 * - `renewal_soft_declined`: a renewal was declined for a reason that may pass (funds, processing).
 * - `renewal_failed`: a hard decline, an unusable instrument, or the last retry declined.
 * - `canceled`: the customer canceled; access lasts until the paid period ends.
 * - `period_ended`: a paid period ended with nothing more to charge (canceled, one-month purchases).
 * - `refunded`: the money was returned (money-back guarantee); access ends now.
 */
export type SubscriptionEvent = 'renewal_succeeded' | 'renewal_soft_declined' | 'renewal_failed' | 'canceled' | 'period_ended' | 'refunded';

export class InvalidTransitionError extends Error {
  constructor(
    readonly from: SubscriptionStatus,
    readonly event: SubscriptionEvent,
  ) {
    super(`subscription cannot take '${event}' while ${from}`);
    this.name = 'InvalidTransitionError';
  }
}

/**
 * The subscription state machine.
 *
 * ```
 * trialing ─renewal_succeeded→ active ─renewal_succeeded→ active
 * trialing|active ─renewal_soft_declined→ past_due ─renewal_succeeded→ active
 * past_due ─renewal_soft_declined→ past_due   (next retry)
 * trialing|active|past_due ─renewal_failed→ expired
 * trialing|active|past_due ─canceled→ canceled ─period_ended→ expired
 * active ─period_ended→ expired   (one-time period purchases)
 * trialing|active|past_due|canceled ─refunded→ expired
 * ```
 * @throws InvalidTransitionError for any other pair.
 */
export function transition(from: SubscriptionStatus, event: SubscriptionEvent): SubscriptionStatus {
  switch (from) {
    case 'trialing':
    case 'active':
    case 'past_due':
      switch (event) {
        case 'renewal_succeeded':
          return 'active';
        case 'renewal_soft_declined':
          return 'past_due';
        case 'renewal_failed':
        case 'refunded':
          return 'expired';
        case 'canceled':
          return 'canceled';
        case 'period_ended':
          // One-month purchases end here (active only); trials convert and past-due periods retry instead.
          if (from === 'active') return 'expired';
          throw new InvalidTransitionError(from, event);
        default:
          return unreachable(event);
      }
    case 'canceled':
      switch (event) {
        case 'period_ended':
        case 'refunded':
          return 'expired';
        case 'renewal_succeeded':
        case 'renewal_soft_declined':
        case 'renewal_failed':
        case 'canceled':
          throw new InvalidTransitionError(from, event);
        default:
          return unreachable(event);
      }
    case 'expired':
      throw new InvalidTransitionError(from, event);
    default:
      return unreachable(from);
  }
}

function unreachable(value: never): never {
  throw new Error(`unhandled value ${String(value)}`);
}
