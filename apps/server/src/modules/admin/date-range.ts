import type { DateRangeQuery } from '@roots/contracts/admin';
import { DAY_MS } from '../../lib/clock';

/** Half-open range of instants [from, to) the dashboards read. */
export type Instants = { from: Date; to: Date };

/** Every UTC day of a range, in order. */
export function daysOf(range: DateRangeQuery): string[] {
  const days: string[] = [];
  for (let at = Date.parse(`${range.from}T00:00:00Z`); at <= Date.parse(`${range.to}T00:00:00Z`); at += DAY_MS)
    days.push(new Date(at).toISOString().slice(0, 10));
  return days;
}

/** The range's instants: from its first day's start to its last day's end, [from, to). */
export function instantsOf(range: DateRangeQuery): Instants {
  return { from: new Date(`${range.from}T00:00:00Z`), to: new Date(Date.parse(`${range.to}T00:00:00Z`) + DAY_MS) };
}

/** The UTC day (YYYY-MM-DD) an instant falls on. */
export const dayOf = (at: Date): string => at.toISOString().slice(0, 10);

/** The day after `day` (YYYY-MM-DD). */
export const nextDay = (day: string): string => dayOf(new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS));

/** The day before `day` (YYYY-MM-DD). */
export const previousDay = (day: string): string => dayOf(new Date(Date.parse(`${day}T00:00:00Z`) - DAY_MS));

/** The UTC day that starts at `at`; the day-keyed counts answer only for whole days, so anything else is a bug. */
export function dayStartingAt(at: Date): string {
  const day = dayOf(at);
  if (at.getTime() !== Date.parse(`${day}T00:00:00Z`)) throw new Error(`not the start of a UTC day: ${at.toISOString()}`);
  return day;
}

/**
 * How far behind now the roll-ups of today (funnel events, ADR 198; charges, ADR 200) stay: a row's
 * time is taken just before its short insert commits, so one this old is committed and visible.
 */
export const ROLLUP_SETTLE_MS = 5 * 60_000;
