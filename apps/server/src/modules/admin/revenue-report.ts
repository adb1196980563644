import type { PlanCatalog } from '@roots/contracts';
import { COHORT_PERIODS, type CancelChannel, type DateRangeQuery, type RevenueDay, type RevenueReport } from '@roots/contracts/admin';
import type { Executor } from '../../db/executor';
import type { AgreedTerms } from '../../db/schema';
import { DAY_MS } from '../../lib/clock';
import { disputeMonths, disputeMonthsSpan, disputesByDay } from '../disputes/dispute-figures';
import { dayOf, daysOf, instantsOf, previousDay } from './date-range';
import { foldPurchaseCounts } from '../lifecycle/purchase-counts';
import { MAX_PERIOD_BIT, MetricsRepository, reading, type ChargeGroupRow, type PurchaseGroupRow } from './metrics.repository';
import {
  churn,
  cohorts,
  firstPaidPeriod,
  isTrial,
  metricTermsOf,
  payingAt,
  periodStart,
  periodMrr,
  planLabel,
  trialCohort,
  type MetricTerms,
  type PurchaseFacts,
} from './metrics';

/** The first instant after the calendar month (UTC) of `day` (YYYY-MM-DD). */
function endOfMonth(day: string): Date {
  const end = new Date(`${day.slice(0, 7)}-01T00:00:00Z`);
  end.setUTCMonth(end.getUTCMonth() + 1);
  return end;
}

/** How far before the range's first month purchases are read: a trial ending in the range began at most this long before. */
const LOOKBACK_MS = 62 * DAY_MS;

/** The periods whose bits are set in `mask` (period n: bit n). */
function periodsOf(mask: number): number[] {
  const periods: number[] = [];
  for (let period = 0; period <= MAX_PERIOD_BIT; period += 1) if (mask & (1 << period)) periods.push(period);
  return periods;
}

/** Succeeded card payments (refunds apart) per month (YYYY-MM) of charge groups. */
function cardPaymentsByMonth(groups: ChargeGroupRow[]): Map<string, number> {
  const payments = new Map<string, number>();
  for (const row of groups) {
    if (row.kind === 'refund' || row.status !== 'succeeded') continue;
    const month = row.day.slice(0, 7);
    payments.set(month, (payments.get(month) ?? 0) + row.count);
  }
  return payments;
}

const ratio = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : 0);

function emptyDay(day: string): RevenueDay {
  return {
    day,
    trials_started: 0,
    direct_purchases: 0,
    one_time_purchases: 0,
    addon_purchases: 0,
    trial_conversions: 0,
    renewals: 0,
    renewal_failures: 0,
    recovered: 0,
    refunds: 0,
    refunded_minor: 0,
    auto_refunds: 0,
    auto_refunded_minor: 0,
    disputes_opened: 0,
    chargebacks: 0,
    chargeback_minor: 0,
    cancellations: 0,
    addon_minor: 0,
    gross_minor: 0,
  };
}

type PlanRow = RevenueReport['plans'][number];

/** A group of main purchases with whether they were made after now's time of day (every other comparison is by day). */
type TimedGroupRow = PurchaseGroupRow & { after_now: boolean };

const startOfDay = (day: string) => Date.parse(`${day}T00:00:00Z`);

/**
 * The main purchases the range figures read (ADR 200): the counts give them per day of purchase; on
 * a day whose purchases have a period turning today (the end of a trial, a cohort's period coming
 * due), whether it turned by now depends on the time of day they were made, so those made after
 * now's time of day that day are read from the purchases themselves and told apart.
 */
async function purchaseGroups(
  tx: Executor,
  repository: MetricsRepository,
  deps: { catalog: PlanCatalog; now: Date },
  span: { range: { from: Date; to: Date }; since: Date; until: Date },
): Promise<TimedGroupRow[]> {
  const { now } = deps;
  const groups = await repository.purchases(tx, span.range, span.since, span.until);
  const today = now.toISOString().slice(0, 10);
  const turning = new Map<string, { day: string; planId: string }>();
  const [sinceDay, untilDay] = [dayOf(span.since), dayOf(span.until)];
  for (const row of groups) {
    // A purchase made outside [since, until) is read for its end (churn, counted by day) alone; and
    // the purchases of its day were not all read, so none of them is told apart.
    if (row.created_day < sinceDay || row.created_day >= untilDay) continue;
    const terms = metricTermsOf(deps.catalog, row.plan_id, row.agreed_terms);
    const made = new Date(startOfDay(row.created_day));
    // The periods the figures compare with now: the trial's end (period 1) and a cohort's first COHORT_PERIODS after its first paid one.
    for (let period = 0; period <= COHORT_PERIODS + 1; period += 1) {
      const start = periodStart(terms, made, period);
      if (start === null || start.toISOString().slice(0, 10) > today) break;
      if (start.toISOString().slice(0, 10) === today)
        turning.set(`${row.created_day}\u0000${row.plan_id}`, { day: row.created_day, planId: row.plan_id });
    }
  }
  const keyOf = (row: PurchaseGroupRow) =>
    JSON.stringify([
      row.plan_id,
      row.agreed_terms,
      row.current_period,
      row.channel,
      row.created_day,
      row.ended_day,
      Number(row.periods),
      row.month0,
      row.month1,
    ]);
  const timed = new Map<string, TimedGroupRow>(groups.map((row) => [keyOf(row), { ...row, after_now: false }]));
  const later = await repository.madeAfterTimeOfDay(tx, [...turning.values()], now.getTime() - startOfDay(today));
  const rows: TimedGroupRow[] = [...timed.values()];
  for (const row of later) {
    const group = timed.get(keyOf(row));
    // Read in the same snapshot as the counts, every purchase made after now's time of day is one of its group's.
    if (!group || group.count < row.count) throw new Error(`the purchase counts disagree with the purchases of ${row.created_day}`);
    group.count -= row.count;
    rows.push({ ...row, after_now: true });
  }
  return rows.filter((row) => row.count > 0);
}

/**
 * The revenue view (docs/metrics.md): what happened in the range (per day and in total), what holds
 * now, per plan by name, the cancellations by channel and the monthly retention cohorts.
 */
export async function revenueReport(
  deps: { db: Executor; catalog: PlanCatalog; now: Date; repository?: MetricsRepository },
  range: DateRangeQuery,
): Promise<RevenueReport> {
  const repository = deps.repository ?? new MetricsRepository();
  const { db, now } = deps;
  const instants = instantsOf(range);
  const firstMonth = new Date(`${range.from.slice(0, 7)}-01T00:00:00Z`);
  // Finished days' charges come from their daily groups (rolled here when needed, ADR 157); the rest from the ledger.
  const today = now.toISOString().slice(0, 10);
  const yesterday = previousDay(today);
  await Promise.all([repository.rollUpCharges(db, yesterday, now), foldPurchaseCounts(db)]);
  // The charges' groups of the dispute rates' months (the range's months and the one before), which hold the range's days.
  const span = disputeMonthsSpan(range.from.slice(0, 7), range.to.slice(0, 7));
  const groupsRead = repository.chargeGroupsOfDays(db, dayOf(span.start), dayOf(new Date(span.end.getTime() - DAY_MS)));
  const [chargeGroups, stops, holding, purchases, starting, disputed, disputeRates] = await Promise.all([
    groupsRead,
    reading(db, (tx) => repository.stops(tx, instants)),
    reading(db, (tx) => repository.holding(tx)),
    // Up to the end of the range's last month: a cohort is every purchase first paid in its calendar
    // month, whatever day the range ends on (issue 36); the other figures filter by the range themselves.
    reading(db, (tx) =>
      purchaseGroups(tx, repository, deps, {
        range: instants,
        since: new Date(firstMonth.getTime() - LOOKBACK_MS),
        until: endOfMonth(range.to),
      }),
    ),
    reading(db, (tx) => repository.startingAt(tx, instants.from)),
    disputesByDay(db, instants),
    groupsRead.then((groups) => disputeMonths(db, range.from.slice(0, 7), range.to.slice(0, 7), cardPaymentsByMonth(groups))),
  ]);
  const termsOf = (planId: string, agreed: AgreedTerms | null): MetricTerms => metricTermsOf(deps.catalog, planId, agreed);
  const plans = new Map<string, PlanRow>();
  const planRow = (planId: string, terms: MetricTerms): PlanRow => {
    const label = planLabel(terms);
    const key = `${planId}\u0000${label}`;
    const row = plans.get(key) ?? { plan_id: planId, plan_name: label, new_purchases: 0, active_paying: 0, active_trials: 0, mrr_minor: 0 };
    plans.set(key, row);
    return row;
  };

  const days = new Map(daysOf(range).map((day) => [day, emptyDay(day)]));
  for (const row of chargeGroups) {
    const day = days.get(row.day);
    if (!day) continue;
    const amount = Number(row.amount_minor);
    const succeeded = row.status === 'succeeded';
    if (row.kind === 'refund') {
      if (!succeeded) continue;
      if (row.automatic) {
        day.auto_refunds += row.count;
        day.auto_refunded_minor += amount;
      } else {
        day.refunds += row.count;
        day.refunded_minor += amount;
      }
      continue;
    }
    const terms = termsOf(row.plan_id, row.agreed_terms);
    if (succeeded) day.gross_minor += amount;
    if (row.kind === 'add-on' || row.addon) {
      if (succeeded) {
        day.addon_minor += amount;
        day.addon_purchases += row.count;
        // An add-on purchase is a new purchase of its plan in By plan too, counted as Add-on purchases is (issue 36).
        planRow(row.plan_id, terms).new_purchases += row.count;
      }
    } else if (row.kind === 'first') {
      if (!succeeded) continue;
      planRow(row.plan_id, terms).new_purchases += row.count;
      if (isTrial(terms)) day.trials_started += row.count;
      else if (terms.recurring) day.direct_purchases += row.count;
      else day.one_time_purchases += row.count;
    } else if (row.kind === 'renewal') {
      if (succeeded) {
        if (isTrial(terms) && row.period === firstPaidPeriod(terms)) day.trial_conversions += row.count;
        else day.renewals += row.count;
        if (row.retry) day.recovered += row.count;
      } else if (row.status === 'failed') {
        day.renewal_failures += row.count;
      }
    }
  }
  // Disputes beside refunds (ADR 182): opened by the day the bank opened them, chargebacks by the day they ended.
  for (const row of disputed) {
    const day = days.get(row.day);
    if (!day) continue;
    day.disputes_opened += row.opened;
    day.chargebacks += row.chargebacks;
    day.chargeback_minor += row.chargebackMinor;
  }
  const byChannel = new Map<string, { channel: CancelChannel; reason: string; count: number }>();
  for (const row of stops) {
    // A one-time purchase never renewed: its refund is a refund, not a stop.
    if (!termsOf(row.plan_id, row.agreed_terms).recurring) continue;
    const day = days.get(row.day);
    if (day) day.cancellations += row.count;
    const key = `${row.channel}\u0000${row.reason}`;
    const entry = byChannel.get(key) ?? { channel: row.channel as CancelChannel, reason: row.reason, count: 0 };
    entry.count += row.count;
    byChannel.set(key, entry);
  }

  const current = { active_paying: 0, past_due: 0, active_trials: 0, one_time_with_access: 0, mrr_minor: 0 };
  let mrr = 0;
  for (const row of holding) {
    const terms = termsOf(row.plan_id, row.agreed_terms);
    if (!terms.recurring || row.addon) {
      current.one_time_with_access += row.count;
      continue;
    }
    const plan = planRow(row.plan_id, terms);
    // One rule for a trial whose conversion is retried (issue 36): still a trial (no full-price
    // period paid), and in payment retry, as the Past-due queue lists it.
    if (row.status === 'past_due') current.past_due += row.count;
    if (row.current_period < firstPaidPeriod(terms)) {
      current.active_trials += row.count;
      plan.active_trials += row.count;
      continue;
    }
    current.active_paying += row.count;
    plan.active_paying += row.count;
    const monthly = periodMrr(terms, row.current_period) * row.count;
    mrr += monthly;
    plan.mrr_minor += monthly;
  }
  current.mrr_minor = Math.round(mrr);
  for (const plan of plans.values()) plan.mrr_minor = Math.round(plan.mrr_minor);

  const dayStart = startOfDay;
  const nowTimeOfDay = now.getTime() - dayStart(now.toISOString().slice(0, 10));
  const facts: PurchaseFacts[] = purchases.map((row) => {
    const periods = periodsOf(Number(row.periods));
    // A time of day standing for the group's: at midnight (at or before now's), or just after now's.
    const createdAt = new Date(dayStart(row.created_day) + (row.after_now ? nowTimeOfDay + 1 : 0));
    const paidIn = (month: string | null) => (month === null ? createdAt : new Date(`${month}-01T00:00:00Z`));
    return {
      terms: termsOf(row.plan_id, row.agreed_terms),
      currentPeriod: row.current_period,
      createdAt,
      endedAt: row.ended_day === null ? null : new Date(dayStart(row.ended_day)),
      channel: row.channel,
      paid: periods.map((period) => ({ period, at: paidIn(period === 0 ? row.month0 : period === 1 ? row.month1 : null) })),
      count: row.count,
    };
  });
  const trials = trialCohort(facts, instants, now);
  const churned = churn(facts, instants);
  const atStart = payingAt(
    starting.map((row) => ({ terms: termsOf(row.plan_id, row.agreed_terms), pastFirstPeriod: row.past_first, count: row.count })),
  );
  const both = (split: { voluntary: number; involuntary: number }) => split.voluntary + split.involuntary;

  const list = [...days.values()];
  const sum = (field: Exclude<keyof RevenueDay, 'day'>) => list.reduce((total, day) => total + day[field], 0);
  const fields = Object.keys(emptyDay('')).filter((key) => key !== 'day') as Array<Exclude<keyof RevenueDay, 'day'>>;
  const totals = Object.fromEntries(fields.map((field) => [field, sum(field)])) as Omit<RevenueDay, 'day'>;
  return {
    days: list,
    totals: {
      ...totals,
      trials_ended: trials.ended,
      trials_converted: trials.converted,
      trial_to_paid: ratio(trials.converted, trials.ended),
      churned_subscribers: churned.subscribers,
      churned_mrr_minor: churned.mrr,
      paying_at_start: atStart.subscribers,
      mrr_at_start_minor: atStart.mrr,
      subscriber_churn_rate: ratio(both(churned.subscribers), atStart.subscribers),
      mrr_churn_rate: ratio(both(churned.mrr), atStart.mrr),
    },
    now: current,
    plans: [...plans.values()].sort(
      (a, b) => b.new_purchases + b.active_paying - (a.new_purchases + a.active_paying) || a.plan_name.localeCompare(b.plan_name),
    ),
    cancellations: [...byChannel.values()].sort((a, b) => b.count - a.count),
    cohorts: cohorts(facts, range.from.slice(0, 7), range.to.slice(0, 7), now),
    dispute_months: disputeRates,
  };
}
