import type { DateRangeQuery } from '@roots/contracts/admin';
import { DAY_MS } from '../../lib/clock';
import type { Instants } from './admin.repository';

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
