import { formatUsd } from './disclosure';
import type { AgreedSummary, SubscriptionStatus } from './subscriptions';

/**
 * The words a customer reads about a subscription (issue 35), on the account screens and in the
 * emails alike: a status in plain words instead of its code, the agreed price and period, and
 * dates in one format ("December 1, 2026").
 */

/** A date as the app and the emails write it: "December 1, 2026" (UTC, so both say the same day). */
export function longDate(date: Date | string): string {
  return new Date(date).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
}

/**
 * A status in the customer's words. `trialing` is "Trial" only for a plan with a trial: a plan whose
 * first period is an introductory price (the 3-month plan) is "Active" from its first day.
 */
export function statusWords(status: SubscriptionStatus, agreed: Pick<AgreedSummary, 'trial'> | null, renews: boolean): string {
  switch (status) {
    case 'trialing':
      return agreed?.trial ? 'Trial' : 'Active';
    case 'active':
      return renews ? 'Active' : 'Yours to keep';
    case 'past_due':
      return 'Payment failed — update your card';
    case 'canceled':
      return 'Canceled — no further charges';
    case 'expired':
      return 'Ended';
  }
}

/** "every week", "every 3 months", "every 2 days": how often a period comes round. */
export function everyPeriod(period: { unit: 'day' | 'month'; count: number }): string {
  if (period.unit === 'day' && period.count === 7) return 'every week';
  if (period.count === 1) return `every ${period.unit}`;
  return `every ${period.count} ${period.unit}s`;
}

/**
 * The agreed price of a purchase in one line: "$24.99 every week, after a 3-day trial for $1",
 * "$49.99 every 3 months, first 3 months $48", "$28.99, one-time purchase".
 */
export function agreedPriceLine(agreed: AgreedSummary): string {
  if (agreed.renewal_amount === null || !agreed.renewal_period) return `${formatUsd(agreed.first_amount)}, one-time purchase`;
  const line = `${formatUsd(agreed.renewal_amount)} ${everyPeriod(agreed.renewal_period)}`;
  if (agreed.first_amount === agreed.renewal_amount || !agreed.first_period) return line;
  const first = agreed.first_period;
  return agreed.trial
    ? `${line}, after a ${first.count}-${first.unit} trial for ${formatUsd(agreed.first_amount)}`
    : `${line}, first ${first.count === 1 ? first.unit : `${first.count} ${first.unit}s`} ${formatUsd(agreed.first_amount)}`;
}
