import { describe, expect, it } from 'vitest';
import type { ChargeRow } from './charges.repository';
import { guaranteedRefund } from './guarantee';

const paidAt = new Date('2026-03-01T10:00:00.000Z');
const DAY = 86_400_000;

function charge(overrides: Partial<ChargeRow> = {}): ChargeRow {
  return {
    id: 'c-latest',
    kind: 'renewal',
    subscriptionId: 's1',
    parentSubscriptionId: null,
    planId: 'roots_3d1_7d2499',
    period: 1,
    attempt: 0,
    refundOfChargeId: null,
    idempotencyKey: 'sub:s1:period:1',
    amountMinor: 2499,
    currency: 'USD',
    status: 'succeeded',
    executionId: 'exe_1',
    gatewayRefundId: null,
    declineCode: null,
    refundedMinor: 0,
    createdAt: paidAt,
    updatedAt: paidAt,
    ...overrides,
  };
}

describe('the money-back guarantee (issue 23)', () => {
  it('covers the latest paid charge, whole, until the last moment of its window', () => {
    const offered = guaranteedRefund([charge(), charge({ id: 'c-first', period: 0 })], new Date(paidAt.getTime() + 30 * DAY), 30);
    expect(offered?.charge.id).toBe('c-latest');
    expect(offered?.until).toEqual(new Date(paidAt.getTime() + 30 * DAY));
    expect(guaranteedRefund([charge()], new Date(paidAt.getTime() + 30 * DAY + 1), 30)).toBeUndefined();
    expect(guaranteedRefund([charge()], paidAt, 0)?.until).toEqual(paidAt);
  });

  it('covers what a partial refund left (issue 32), nothing once all of it came back', () => {
    const now = new Date(paidAt.getTime() + DAY);
    expect(guaranteedRefund([charge({ refundedMinor: 1000 })], now, 30)?.charge).toMatchObject({ amountMinor: 2499, refundedMinor: 1000 });
    expect(guaranteedRefund([charge({ refundedMinor: 2499 })], now, 30)).toBeUndefined();
  });

  it('covers nothing refunded already, unpaid, without an execution, or a refund itself', () => {
    const now = new Date(paidAt.getTime() + DAY);
    expect(guaranteedRefund([charge({ refundedMinor: 2499 })], now, 30)).toBeUndefined();
    expect(guaranteedRefund([charge({ status: 'failed' })], now, 30)).toBeUndefined();
    expect(guaranteedRefund([charge({ status: 'pending' })], now, 30)).toBeUndefined();
    expect(guaranteedRefund([charge({ executionId: null })], now, 30)).toBeUndefined();
    expect(guaranteedRefund([charge({ kind: 'refund' })], now, 30)).toBeUndefined();
    expect(guaranteedRefund([], now, 30)).toBeUndefined();
    // A failed newer attempt does not hide the paid one before it.
    expect(guaranteedRefund([charge({ id: 'c-declined', status: 'failed' }), charge()], now, 30)?.charge.id).toBe('c-latest');
  });
});
