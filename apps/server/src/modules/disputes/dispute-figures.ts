import { DISPUTE_RATE_ALERT, type DisputeMonth } from '@roots/contracts/admin';
import { CHARGED_BACK_DISPUTE_STATUSES } from '@roots/contracts/gateway';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/executor';
import { rowsOf } from '../emails/emails.repository';

const ratio = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1_000_000) / 1_000_000 : 0);

/** Disputes opened and chargebacks (lost or accepted, by the day they ended) per UTC day of [from, to) (ADR 182). */
export async function disputesByDay(
  db: Executor,
  range: { from: Date; to: Date },
): Promise<{ day: string; opened: number; chargebacks: number; chargebackMinor: number }[]> {
  const from = range.from.toISOString();
  const to = range.to.toISOString();
  const rows = rowsOf<{ day: string; opened: number | string; chargebacks: number | string; minor: number | string }>(
    await db.execute(sql`
      select day, sum(opened) as opened, sum(chargebacks) as chargebacks, sum(minor) as minor from (
        select to_char(opened_at at time zone 'UTC', 'YYYY-MM-DD') as day, 1 as opened, 0 as chargebacks, 0 as minor
          from disputes where opened_at >= ${from} and opened_at < ${to}
        union all
        select to_char(closed_at at time zone 'UTC', 'YYYY-MM-DD'), 0, 1, amount_minor
          from disputes where status in ${[...CHARGED_BACK_DISPUTE_STATUSES]} and closed_at >= ${from} and closed_at < ${to}
      ) as moves group by day`),
  );
  return rows.map((row) => ({
    day: row.day,
    opened: Number(row.opened),
    chargebacks: Number(row.chargebacks),
    chargebackMinor: Number(row.minor),
  }));
}

/** The calendar months (YYYY-MM) from `fromMonth` to `toMonth`, both included. */
function monthsBetween(fromMonth: string, toMonth: string): string[] {
  const months: string[] = [];
  for (let at = new Date(`${fromMonth}-01T00:00:00Z`); at.toISOString().slice(0, 7) <= toMonth; at.setUTCMonth(at.getUTCMonth() + 1))
    months.push(at.toISOString().slice(0, 7));
  return months;
}

/**
 * The instants [start, end) the dispute rates of the months `fromMonth` to `toMonth` (YYYY-MM) read:
 * from the first day of the month before the first (Mastercard's ratio divides by the previous
 * month's payments) to the end of the last.
 */
export function disputeMonthsSpan(fromMonth: string, toMonth: string): { start: Date; end: Date } {
  const start = new Date(`${fromMonth}-01T00:00:00Z`);
  start.setUTCMonth(start.getUTCMonth() - 1);
  const end = new Date(`${toMonth}-01T00:00:00Z`);
  end.setUTCMonth(end.getUTCMonth() + 1);
  return { start, end };
}

/**
 * Each month's disputes (by the month the bank opened them) against its succeeded card payments
 * (first payments, renewals, add-ons; refunds apart), and the previous month's, so both networks'
 * ratios can be read (docs/metrics.md, "Dispute rate"). `cardPayments`: the succeeded payments per
 * month (YYYY-MM) of {@link disputeMonthsSpan}, counted by the caller from the charges' daily
 * groups the revenue view reads anyway (counting the ledger's rows again read every charge of
 * those months, bench:admin).
 */
export async function disputeMonths(
  db: Executor,
  fromMonth: string,
  toMonth: string,
  paymentsByMonth: ReadonlyMap<string, number>,
): Promise<DisputeMonth[]> {
  const months = monthsBetween(fromMonth, toMonth);
  const { start, end } = disputeMonthsSpan(months[0]!, months.at(-1)!);
  const opened = await db.execute(sql`
    select to_char(opened_at at time zone 'UTC', 'YYYY-MM') as month, count(*) as count from disputes
    where opened_at >= ${start.toISOString()} and opened_at < ${end.toISOString()} group by 1`);
  const disputes = new Map(rowsOf<{ month: string; count: number | string }>(opened).map((row) => [row.month, Number(row.count)]));
  return months.map((month) => {
    const before = new Date(`${month}-01T00:00:00Z`);
    before.setUTCMonth(before.getUTCMonth() - 1);
    const count = disputes.get(month) ?? 0;
    const cardPayments = paymentsByMonth.get(month) ?? 0;
    const previous = paymentsByMonth.get(before.toISOString().slice(0, 7)) ?? 0;
    const visa = ratio(count, cardPayments);
    const mastercard = ratio(count, previous);
    return {
      month,
      disputes: count,
      card_payments: cardPayments,
      previous_month_card_payments: previous,
      visa_ratio: visa,
      mastercard_ratio: mastercard,
      alert: visa >= DISPUTE_RATE_ALERT || mastercard >= DISPUTE_RATE_ALERT,
    };
  });
}
