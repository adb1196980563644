import { buildPlanCatalog } from '@roots/contracts';
import {
  ON_SCHEDULE_STATUSES,
  SUBSCRIPTION_STATUSES,
  hasAccess,
  isCancelable,
  type SubscriptionStatus,
} from '@roots/contracts/subscriptions';
import { describe, expect, it } from 'vitest';
import { planTerms } from '../terms/plan-terms';
import { InvalidTransitionError, initialState, transition, type SubscriptionEvent } from './subscription-state';

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
    // The upcoming-renewals queue lists these; past_due is the dunning queue's.
    expect(SUBSCRIPTION_STATUSES.filter((status) => (ON_SCHEDULE_STATUSES as readonly string[]).includes(status))).toEqual([
      'trialing',
      'active',
    ]);
  });
});

describe('the state a purchase starts in (lifecycle.start, issue 33)', () => {
  const catalog = buildPlanCatalog('roots');
  const boughtAt = new Date('2026-01-31T10:00:00.000Z');
  const terms = (id: string) => {
    const found = planTerms(catalog, id);
    if (!found) throw new Error(`no plan ${id}`);
    return found;
  };

  it('a weekly plan with a 3-day trial starts trialing, due when the trial ends', () => {
    expect(initialState(terms('roots_3d1_7d2499'), boughtAt)).toEqual({
      status: 'trialing',
      currentPeriod: 0,
      currentPeriodStart: boughtAt,
      currentPeriodEnd: new Date('2026-02-03T10:00:00.000Z'),
      dueAt: new Date('2026-02-03T10:00:00.000Z'),
    });
  });

  it('a 3-month plan at an introductory price is trialing too (status words say otherwise, ADR 186)', () => {
    expect(initialState(terms('roots_3m4800_3m4999'), boughtAt)).toMatchObject({
      status: 'trialing',
      currentPeriodEnd: new Date('2026-04-30T10:00:00.000Z'),
    });
  });

  it('a one-month purchase starts active and expires a month later; a lifetime one is never due', () => {
    expect(initialState(terms('roots_premium_one_month'), boughtAt)).toMatchObject({
      status: 'active',
      currentPeriodEnd: new Date('2026-02-28T10:00:00.000Z'),
      dueAt: new Date('2026-02-28T10:00:00.000Z'),
    });
    expect(initialState(terms('roots_ultimate_pack_4999_otp'), boughtAt)).toMatchObject({
      status: 'active',
      currentPeriodEnd: null,
      dueAt: null,
    });
  });

  it('only a recurring plan with a trial starts trialing', () => {
    expect(initialState({ ...terms('roots_3d1_7d2499'), hasTrial: false }, boughtAt).status).toBe('active');
    expect(initialState({ ...terms('roots_premium_one_month'), hasTrial: true }, boughtAt).status).toBe('active');
  });
});
