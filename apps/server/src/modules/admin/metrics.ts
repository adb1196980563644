import { COHORT_PERIODS, type CancelChannel, type Cohort } from '@roots/contracts/admin';
import type { PlanCatalog } from '@roots/contracts';
import type { AgreedTerms } from '../../db/schema';
import { agreedTermsOf, periodEnd, type PeriodLength, type PlanTerms } from '../terms/plan-terms';

/**
 * The console's figure definitions (docs/metrics.md), as pure functions of a purchase's agreed terms
 * and its history. The SQL only gathers rows; every rule of what counts where lives here.
 */

/** The parts of a purchase's agreed terms the figures read. */
export type MetricTerms = Pick<
  PlanTerms,
  'name' | 'firstAmountMinor' | 'renewalAmountMinor' | 'firstPeriod' | 'renewalPeriod' | 'recurring'
>;

/** Days in an average month (365 / 12): how a period counted in days is brought to a month. */
export const DAYS_PER_MONTH = 365 / 12;

/** A period's length in months (a day-length period over {@link DAYS_PER_MONTH}). */
export function periodMonths(length: PeriodLength): number {
  return length.unit === 'month' ? length.count : length.count / DAYS_PER_MONTH;
}

/**
 * A trial is a first period shorter than the renewal period (the weekly plans' 3 days before weekly
 * renewals). A first period as long as the renewal period at a lower price (the 3-month plan's $48
 * for its first 3 months) is a paid introductory period: a direct purchase, not a trial.
 */
export function isTrial(terms: MetricTerms): boolean {
  if (!terms.recurring || !terms.firstPeriod || !terms.renewalPeriod) return false;
  return periodMonths(terms.firstPeriod) < periodMonths(terms.renewalPeriod);
}

/** The first period a subscriber pays full price for: 1 after a trial, 0 otherwise. */
export function firstPaidPeriod(terms: MetricTerms): number {
  return isTrial(terms) ? 1 : 0;
}

/** `amountMinor` charged every `length`, per month (unrounded minor units). */
export function monthly(amountMinor: number, length: PeriodLength): number {
  return amountMinor / periodMonths(length);
}

/**
 * What a recurring subscription in period `period` brings per month: the agreed price of that
 * period over its length (a paid introductory period at its own price), 0 during a trial or for a
 * one-time purchase.
 */
export function periodMrr(terms: MetricTerms, period: number): number {
  if (!terms.recurring) return 0;
  if (period === 0) {
    if (isTrial(terms) || !terms.firstPeriod) return 0;
    return monthly(terms.firstAmountMinor, terms.firstPeriod);
  }
  if (terms.renewalAmountMinor === null || !terms.renewalPeriod) return 0;
  return monthly(terms.renewalAmountMinor, terms.renewalPeriod);
}

/** When period `period` of a subscription started at `start` begins (period 0 begins at `start`). */
export function periodStart(terms: MetricTerms, start: Date, period: number): Date | null {
  let at = start;
  for (let index = 0; index < period; index += 1) {
    const length = index === 0 ? terms.firstPeriod : terms.renewalPeriod;
    if (!length) return null;
    at = periodEnd(at, length);
  }
  return at;
}

/**
 * Purchases as the range figures read them: their terms, dates and the periods they paid, `count`
 * alike ones together (the repository groups purchases whose every comparison comes out the same).
 */
export type PurchaseFacts = {
  terms: MetricTerms;
  currentPeriod: number;
  createdAt: Date;
  endedAt: Date | null;
  /** Churn channel recorded when it stopped renewing (null: none recorded). */
  channel: string | null;
  /** Succeeded charges (refunds apart): the period each paid and when. */
  paid: Array<{ period: number; at: Date }>;
  /** How many purchases these facts stand for. */
  count: number;
};

export type Span = { from: Date; to: Date };
const within = (at: Date | null, span: Span) => at !== null && at >= span.from && at < span.to;

/**
 * Trial → paid over the cohort of trials whose trial period ended in the range (and by now): a
 * trial canceled or refunded early still ends when its trial period would have, and counts as not
 * converted. Converted: the first full-price period was paid (at any time up to now).
 */
export function trialCohort(facts: readonly PurchaseFacts[], span: Span, now: Date): { ended: number; converted: number } {
  let ended = 0;
  let converted = 0;
  for (const row of facts) {
    if (!isTrial(row.terms)) continue;
    const end = periodStart(row.terms, row.createdAt, 1);
    if (!end || !within(end, span) || end > now) continue;
    ended += row.count;
    if (row.paid.some((charge) => charge.period === 1)) converted += row.count;
  }
  return { ended, converted };
}

/** Involuntary churn: a renewal declined for good. Every other end (a cancel, a full refund) is voluntary. */
export function isInvoluntary(channel: string | null): boolean {
  return channel === ('payment_failed' satisfies CancelChannel);
}

/**
 * Subscriber and MRR churn of the range: paying recurring subscriptions (not in a trial) whose
 * access ended in the range, with the MRR their period brought. A trial that ends without paying is
 * a trial not converted, not churn.
 */
export function churn(facts: readonly PurchaseFacts[], span: Span) {
  const subscribers = { voluntary: 0, involuntary: 0 };
  const mrr = { voluntary: 0, involuntary: 0 };
  for (const row of facts) {
    if (!row.terms.recurring || !within(row.endedAt, span)) continue;
    if (row.currentPeriod < firstPaidPeriod(row.terms)) continue;
    const kind = isInvoluntary(row.channel) ? 'involuntary' : 'voluntary';
    subscribers[kind] += row.count;
    mrr[kind] += periodMrr(row.terms, row.currentPeriod) * row.count;
  }
  return {
    subscribers,
    mrr: { voluntary: Math.round(mrr.voluntary), involuntary: Math.round(mrr.involuntary) },
  };
}

/** Recurring main purchases made before an instant and not ended by then, alike ones together. */
export type StartFacts = {
  terms: MetricTerms;
  /** Its period 1 was paid before the instant (a converted trial; a direct purchase past its first period). */
  pastFirstPeriod: boolean;
  count: number;
};

/**
 * The paying subscribers and their MRR at an instant (the base of the churn rates, as ChartMogul's
 * customer and gross MRR churn rates divide by the start of the period): recurring subscriptions
 * past any trial and not ended, each with the MRR of the period it was in.
 */
export function payingAt(rows: readonly StartFacts[]): { subscribers: number; mrr: number } {
  let subscribers = 0;
  let mrr = 0;
  for (const row of rows) {
    if (!row.terms.recurring) continue;
    if (isTrial(row.terms) && !row.pastFirstPeriod) continue;
    subscribers += row.count;
    mrr += periodMrr(row.terms, row.pastFirstPeriod ? 1 : 0) * row.count;
  }
  return { subscribers, mrr: Math.round(mrr) };
}

/** `YYYY-MM` of an instant (UTC). */
export const monthOf = (at: Date) => at.toISOString().slice(0, 7);

/**
 * Monthly cohorts by first payment: recurring subscriptions whose first full-price period was paid
 * in a month from `fromMonth` to `toMonth`; `retained[n]` is the share of those whose n-th later
 * period has come due by now that paid it (null when none has come due yet).
 */
export function cohorts(facts: readonly PurchaseFacts[], fromMonth: string, toMonth: string, now: Date): Cohort[] {
  const byMonth = new Map<string, Array<{ row: PurchaseFacts; first: number }>>();
  for (const row of facts) {
    if (!row.terms.recurring) continue;
    const first = firstPaidPeriod(row.terms);
    const payment = row.paid.find((charge) => charge.period === first);
    if (!payment) continue;
    const month = monthOf(payment.at);
    if (month < fromMonth || month > toMonth) continue;
    const members = byMonth.get(month) ?? [];
    members.push({ row, first });
    byMonth.set(month, members);
  }
  const total = (members: ReadonlyArray<{ row: PurchaseFacts }>) => members.reduce((sum, { row }) => sum + row.count, 0);
  return [...byMonth.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([month, members]) => ({
      month,
      size: total(members),
      retained: Array.from({ length: COHORT_PERIODS }, (_, n) => {
        const due = members.filter(({ row, first }) => {
          const start = periodStart(row.terms, row.createdAt, first + n);
          return start !== null && start <= now;
        });
        if (due.length === 0) return null;
        const paid = total(due.filter(({ row, first }) => row.paid.some((charge) => charge.period === first + n)));
        return Math.round((paid / total(due)) * 10_000) / 10_000;
      }),
    }));
}

/** A plan's name with its agreed price, so two plans of one name stay apart: "3-Month Plan ($49.99 every 3 months)". */
export function planLabel(terms: MetricTerms): string {
  return `${terms.name} (${priceLabel(terms)})`;
}

/** What a plan costs, as its buyers agreed: '$1.00 trial, then $24.99 every 7 days', '$9.99 once'. */
export function priceLabel(terms: MetricTerms): string {
  const dollars = (minor: number) => `$${(minor / 100).toFixed(2)}`;
  const every = (length: PeriodLength) => (length.count === 1 ? `every ${length.unit}` : `every ${length.count} ${length.unit}s`);
  if (!terms.recurring || terms.renewalAmountMinor === null || !terms.renewalPeriod) return `${dollars(terms.firstAmountMinor)} once`;
  const renewal = `${dollars(terms.renewalAmountMinor)} ${every(terms.renewalPeriod)}`;
  if (isTrial(terms)) return `${dollars(terms.firstAmountMinor)} trial, then ${renewal}`;
  if (terms.firstAmountMinor !== terms.renewalAmountMinor) return `${dollars(terms.firstAmountMinor)} first, then ${renewal}`;
  return renewal;
}

/** The terms a purchase is counted by: as agreed, else the catalog's; a plan gone from both is one-time with nothing known. */
export function metricTermsOf(catalog: PlanCatalog, planId: string, agreed: AgreedTerms | null): MetricTerms {
  return (
    agreedTermsOf(catalog, { planId, agreedTerms: agreed }) ?? {
      name: planId,
      firstAmountMinor: 0,
      renewalAmountMinor: null,
      firstPeriod: null,
      renewalPeriod: null,
      recurring: false,
    }
  );
}
