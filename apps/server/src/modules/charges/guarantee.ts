import { DAY_MS } from '../../lib/clock';
import type { ChargeRow } from './charges.repository';

/**
 * The money-back guarantee (issue 23), in one place for the cancel flows that offer it and the
 * refund that honours it: the latest paid charge of a purchase comes back when asked within `days`
 * of its payment, once: whole, or what an operator's partial refund left of it (issue 32). Undefined
 * when there is nothing it covers now.
 */
export function guaranteedRefund(
  charges: readonly ChargeRow[],
  now: Date,
  days: number,
): { charge: ChargeRow & { executionId: string }; until: Date } | undefined {
  const charge = charges.find((candidate) => candidate.kind !== 'refund' && candidate.status === 'succeeded' && candidate.executionId);
  if (!charge?.executionId || charge.refundedMinor >= charge.amountMinor) return undefined;
  const until = new Date(charge.createdAt.getTime() + days * DAY_MS);
  if (now.getTime() > until.getTime()) return undefined;
  return { charge: { ...charge, executionId: charge.executionId }, until };
}
