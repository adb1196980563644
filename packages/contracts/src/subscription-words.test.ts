import { describe, expect, it } from 'vitest';
import { agreedPriceLine, longDate, statusWords } from './subscription-words';

const weekly = {
  name: 'Weekly Plan',
  first_amount: 1,
  renewal_amount: 24.99,
  first_period: { unit: 'day', count: 3 },
  renewal_period: { unit: 'day', count: 7 },
  trial: true,
} as const;
const threeMonth = {
  name: '3-Month Plan',
  first_amount: 48,
  renewal_amount: 49.99,
  first_period: { unit: 'month', count: 3 },
  renewal_period: { unit: 'month', count: 3 },
  trial: false,
} as const;

describe('the words a customer reads about a subscription (issue 35)', () => {
  it('never shows a status code, and "Trial" only for a plan with a trial', () => {
    expect(statusWords('trialing', weekly, true)).toBe('Trial');
    expect(statusWords('trialing', threeMonth, true)).toBe('Active');
    expect(statusWords('past_due', weekly, true)).toBe('Payment failed — update your card');
    expect(statusWords('canceled', weekly, true)).toBe('Canceled — no further charges');
    expect(statusWords('expired', weekly, true)).toBe('Ended');
    expect(statusWords('active', null, false)).toBe('Yours to keep');
  });

  it('states the agreed price and terms', () => {
    expect(agreedPriceLine(weekly)).toBe('$24.99 every week, after a 3-day trial for $1');
    expect(agreedPriceLine(threeMonth)).toBe('$49.99 every 3 months, first 3 months $48');
    expect(agreedPriceLine({ ...threeMonth, first_amount: 49.99 })).toBe('$49.99 every 3 months');
    expect(agreedPriceLine({ ...weekly, renewal_amount: null, renewal_period: null, first_amount: 28.99 })).toBe(
      '$28.99, one-time purchase',
    );
  });

  it('writes dates as the app does, the same day wherever the reader is', () => {
    expect(longDate('2026-12-01T23:30:00.000Z')).toBe('December 1, 2026');
    expect(longDate(new Date('2026-12-01T00:10:00.000Z'))).toBe('December 1, 2026');
  });
});
