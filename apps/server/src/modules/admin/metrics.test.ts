import { buildPlanCatalog } from '@roots/contracts';
import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../lib/clock';
import { planTerms } from '../terms/plan-terms';
import { churn, cohorts, isTrial, payingAt, periodMrr, planLabel, trialCohort, type MetricTerms, type PurchaseFacts } from './metrics';

/** The edge cases of the figure definitions (docs/metrics.md), on the catalog's own plans. */
const catalog = buildPlanCatalog('roots');
const terms = (id: string): MetricTerms => planTerms(catalog, id)!;
const WEEKLY = terms('roots_3d1_7d2499');
const WEEKLY_5 = terms('roots_3d5_7d2499');
const THREE_MONTH = terms('roots_3m4800_3m4999');
const ULTIMATE = terms('roots_ultimate_pack_4999_otp');
const start = new Date('2026-03-01T10:00:00Z');

function facts(overrides: Partial<PurchaseFacts> & Pick<PurchaseFacts, 'terms'>): PurchaseFacts {
  return {
    currentPeriod: 0,
    createdAt: start,
    endedAt: null,
    channel: null,
    paid: [{ period: 0, at: start }],
    count: 1,
    ...overrides,
  };
}

describe('what a trial is', () => {
  it('the weekly plans start with a trial; the 3-month plans’ paid introductory period is not one; a pack is none', () => {
    expect(isTrial(WEEKLY)).toBe(true);
    expect(isTrial(WEEKLY_5)).toBe(true);
    expect(isTrial(THREE_MONTH)).toBe(false);
    expect(isTrial(terms('roots_3m4800_3m4900'))).toBe(false);
    expect(isTrial(ULTIMATE)).toBe(false);
  });
});

describe('MRR of a period', () => {
  it('a trial brings nothing; a paid introductory period its own price per month; renewals the renewal price', () => {
    expect(periodMrr(WEEKLY, 0)).toBe(0);
    expect(periodMrr(WEEKLY, 1)).toBeCloseTo((2499 * 365) / 12 / 7, 6);
    expect(periodMrr(THREE_MONTH, 0)).toBe(1600);
    expect(periodMrr(THREE_MONTH, 1)).toBeCloseTo(4999 / 3, 6);
    expect(periodMrr(ULTIMATE, 0)).toBe(0);
  });
});

describe('trial → paid', () => {
  const range = { from: new Date('2026-03-04T00:00:00Z'), to: new Date('2026-03-05T00:00:00Z') };
  const now = new Date('2026-03-10T00:00:00Z');
  it('divides by every trial that ended in the range, canceled and refunded ones included', () => {
    const converted = facts({
      terms: WEEKLY,
      paid: [
        { period: 0, at: start },
        { period: 1, at: new Date('2026-03-04T10:00:00Z') },
      ],
    });
    const canceled = facts({ terms: WEEKLY, endedAt: new Date('2026-03-04T10:00:00Z') });
    const refunded = facts({ terms: WEEKLY, endedAt: start, channel: 'by_id' });
    const later = facts({ terms: WEEKLY, createdAt: new Date('2026-03-03T10:00:00Z') }); // ends on the 6th
    const direct = facts({ terms: THREE_MONTH });
    expect(trialCohort([converted, canceled, refunded, later, direct], range, now)).toEqual({ ended: 3, converted: 1 });
    // A trial that has not ended by now is not in it yet.
    expect(trialCohort([converted], range, new Date('2026-03-04T09:00:00Z'))).toEqual({ ended: 0, converted: 0 });
  });
});

describe('churn', () => {
  const range = { from: new Date('2026-03-01T00:00:00Z'), to: new Date('2026-04-01T00:00:00Z') };
  it('a full refund of a paying subscriber is voluntary churn, a final decline involuntary; a trial that ends is neither', () => {
    const refunded = facts({ terms: THREE_MONTH, endedAt: new Date('2026-03-02T00:00:00Z'), channel: 'refund' });
    const declined = facts({
      terms: WEEKLY,

      currentPeriod: 1,
      endedAt: new Date('2026-03-11T00:00:00Z'),
      channel: 'payment_failed',
    });
    const trialEnded = facts({ terms: WEEKLY, endedAt: new Date('2026-03-04T00:00:00Z'), channel: 'payment_failed' });
    const canceledStillRunning = facts({ terms: THREE_MONTH, channel: 'operator' });
    const pack = facts({ terms: ULTIMATE, endedAt: start, channel: 'refund' });
    expect(churn([refunded, declined, trialEnded, canceledStillRunning, pack], range)).toEqual({
      subscribers: { voluntary: 1, involuntary: 1 },
      mrr: { voluntary: 1600, involuntary: Math.round((2499 * 365) / 12 / 7) },
    });
  });
});

describe('retention cohorts', () => {
  it('groups by the month of the first paid period and counts a period only once it has come due', () => {
    const now = new Date('2026-03-20T00:00:00Z');
    const trialStart = new Date('2026-02-26T10:00:00Z'); // converts on 1 March: a March subscriber
    const stayed = facts({
      terms: WEEKLY,
      createdAt: trialStart,
      paid: [0, 1, 2, 3].map((period) => ({ period, at: new Date(trialStart.getTime() + (3 + 7 * (period - 1)) * DAY_MS) })),
    });
    const left = facts({
      terms: WEEKLY,
      createdAt: trialStart,
      paid: [0, 1].map((period) => ({ period, at: new Date(trialStart.getTime() + 3 * period * DAY_MS) })),
    });
    const quarterly = facts({ terms: THREE_MONTH, createdAt: new Date('2026-03-05T00:00:00Z') });
    const neverPaid = facts({ terms: WEEKLY, createdAt: trialStart, paid: [{ period: 0, at: trialStart }] });
    expect(cohorts([stayed, left, quarterly, neverPaid], '2026-03', '2026-03', now)).toEqual([
      { month: '2026-03', size: 3, retained: [1, 0.5, 0.5, null, null, null] },
    ]);
    expect(cohorts([stayed], '2026-04', '2026-04', now)).toEqual([]);
  });
});

describe('plan names', () => {
  it('name each plan with its agreed prices, so plans of one name stay apart', () => {
    expect(planLabel(WEEKLY)).toBe('Weekly Plan ($1.00 trial, then $24.99 every 7 days)');
    expect(planLabel(THREE_MONTH)).toBe('3-Month Plan ($48.00 first, then $49.99 every 3 months)');
    expect(planLabel(terms('roots_3m4800_3m4900'))).toBe('3-Month Plan ($48.00 first, then $49.00 every 3 months)');
    expect(planLabel(ULTIMATE)).toBe('Ultimate Pack ($49.99 once)');
  });
});

describe('paying at the start of a range (the churn rates’ base)', () => {
  it('a trial counts once converted, a paid introductory period at its own price, a pack never', () => {
    const weekly = (2499 * 365) / 12 / 7;
    expect(
      payingAt([
        { terms: WEEKLY, pastFirstPeriod: false, count: 5 },
        { terms: WEEKLY, pastFirstPeriod: true, count: 2 },
        { terms: THREE_MONTH, pastFirstPeriod: false, count: 3 },
        { terms: THREE_MONTH, pastFirstPeriod: true, count: 1 },
        { terms: ULTIMATE, pastFirstPeriod: false, count: 4 },
      ]),
    ).toEqual({ subscribers: 6, mrr: Math.round(2 * weekly + 3 * (4800 / 3) + 4999 / 3) });
    expect(payingAt([])).toEqual({ subscribers: 0, mrr: 0 });
  });
});
