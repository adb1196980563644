import { SUBSCRIPTION_STATUSES, hasAccess, isCancelable, type SubscriptionStatus } from '@roots/contracts/subscriptions';
import { describe, expect, it } from 'vitest';
import { InvalidTransitionError, transition, type SubscriptionEvent } from './subscription-state';

const EVENTS: SubscriptionEvent[] = [
  'renewal_succeeded',
  'renewal_soft_declined',
  'renewal_failed',
  'canceled',
  'period_ended',
  'refunded',
];

/** Every allowed edge; every other (status, event) pair must throw. */
const EDGES: Record<SubscriptionStatus, Partial<Record<SubscriptionEvent, SubscriptionStatus>>> = {
  trialing: {
    renewal_succeeded: 'active',
    renewal_soft_declined: 'past_due',
    renewal_failed: 'expired',
    canceled: 'canceled',
    refunded: 'expired',
  },
  active: {
    renewal_succeeded: 'active',
    renewal_soft_declined: 'past_due',
    renewal_failed: 'expired',
    canceled: 'canceled',
    period_ended: 'expired',
    refunded: 'expired',
  },
  past_due: {
    renewal_succeeded: 'active',
    renewal_soft_declined: 'past_due',
    renewal_failed: 'expired',
    canceled: 'canceled',
    refunded: 'expired',
  },
  canceled: { period_ended: 'expired', refunded: 'expired' },
  expired: {},
};

describe('subscription state machine', () => {
  for (const from of SUBSCRIPTION_STATUSES) {
    for (const event of EVENTS) {
      const to = EDGES[from][event];
      it(`${from} --${event}--> ${to ?? 'rejected'}`, () => {
        if (to) expect(transition(from, event)).toBe(to);
        else expect(() => transition(from, event)).toThrow(InvalidTransitionError);
      });
    }
  }

  it('keeps access until expiry and cancels only live subscriptions', () => {
    expect(SUBSCRIPTION_STATUSES.filter(hasAccess)).toEqual(['trialing', 'active', 'past_due', 'canceled']);
    expect(SUBSCRIPTION_STATUSES.filter(isCancelable)).toEqual(['trialing', 'active', 'past_due']);
  });
});
