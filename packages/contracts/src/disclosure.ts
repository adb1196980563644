import type { Plan } from './plans';

/**
 * Version of the disclosure wording. Bump when the template below changes, so stored consent
 * records say which wording a buyer saw.
 */
export const DISCLOSURE_VERSION = '2026-11-21.1';

/** '$1', '$24.99', '$49' — whole dollars without cents, as the pay button reads. */
export function formatUsd(amount: number): string {
  return Number.isInteger(amount) ? `$${amount}` : `$${amount.toFixed(2)}`;
}

const PERIOD_WORDS: Record<Plan['length'], string> = { '7d': 'every week', '3m': 'every 3 months', lifetime: 'once' };
const TRIAL_WORDS = { '3d': '3-day trial', '3m': 'first 3 months' } as const;

/** What the buyer is told next to the pay button; derived only from plan data. */
export type Disclosure = {
  version: string;
  /** The pay button label, e.g. 'Pay $1 and start trial'. */
  payButton: string;
  /** First charge: amount and what it buys. */
  firstCharge: string;
  /** What happens after the first charge, until cancelled; null for one-time purchases. */
  renewal: string | null;
  /** How to cancel. */
  cancellation: string;
  /** All of the above as the one paragraph stored with the consent record. */
  text: string;
};

/**
 * Builds the disclosure for a plan so copy can never disagree with the charge.
 * @example buildDisclosure(weekly).payButton // 'Pay $1 and start trial'
 */
export function buildDisclosure(plan: Plan): Disclosure {
  const first = plan.trial_sum ?? plan.sum;
  let payButton: string;
  let firstCharge: string;
  let renewal: string | null;
  if (plan.length === 'lifetime') {
    payButton = `Pay ${formatUsd(first)}`;
    firstCharge = `You pay ${formatUsd(first)} once today for ${plan.name_full}. No subscription, no further charges.`;
    renewal = null;
  } else if (plan.trial_sum !== undefined && plan.trial_length) {
    const isTrial = plan.trial_length === '3d';
    payButton = isTrial ? `Pay ${formatUsd(first)} and start trial` : `Pay ${formatUsd(first)} and start plan`;
    firstCharge = `Today you pay ${formatUsd(first)} for your ${TRIAL_WORDS[plan.trial_length]}.`;
    renewal = `Then ${formatUsd(plan.sum)} ${PERIOD_WORDS[plan.length]}, charged automatically to the same card until you cancel.`;
  } else {
    payButton = `Pay ${formatUsd(first)}`;
    firstCharge = `Today you pay ${formatUsd(first)}.`;
    renewal = `Then ${formatUsd(plan.sum)} ${PERIOD_WORDS[plan.length]}, charged automatically to the same card until you cancel.`;
  }
  const cancellation =
    plan.length === 'lifetime'
      ? 'Questions, or a refund under the money-back guarantee: write to our support.'
      : `Cancel anytime before the next charge: in your account under Manage subscriptions, or with your email on the cancel page. Cancelling takes two clicks.`;
  const text = [firstCharge, renewal, cancellation].filter(Boolean).join(' ');
  return { version: DISCLOSURE_VERSION, payButton, firstCharge, renewal, cancellation, text };
}
