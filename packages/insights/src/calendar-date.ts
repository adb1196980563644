import { InsightsError } from './errors';

/** A calendar date as `YYYY-MM-DD`, read as a UTC day so no local timezone can shift it. */
export type CalendarDate = string;

const MS_PER_DAY = 86_400_000;
const CALENDAR_DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Whole days since 1970-01-01 for a `YYYY-MM-DD` date; throws `INVALID_DATE` for anything that is
 * not a real Gregorian date (2026-02-30 included).
 *
 * @example dayNumberOf('1970-01-02') // 1
 */
export function dayNumberOf(date: CalendarDate): number {
  const match = CALENDAR_DATE_PATTERN.exec(date);
  if (!match) throw new InsightsError('INVALID_DATE', `Not a YYYY-MM-DD date: ${date}`);
  const [, year, month, day] = match.map(Number) as [number, number, number, number];
  const utcMs = Date.UTC(year, month - 1, day);
  const roundTrip = new Date(utcMs);
  // Date.UTC silently rolls 02-30 over into March; a round trip catches it.
  if (roundTrip.getUTCFullYear() !== year || roundTrip.getUTCMonth() !== month - 1 || roundTrip.getUTCDate() !== day) {
    throw new InsightsError('INVALID_DATE', `No such calendar date: ${date}`);
  }
  return utcMs / MS_PER_DAY;
}

/** The `YYYY-MM-DD` date of a day number (inverse of {@link dayNumberOf}). */
export function calendarDateOf(dayNumber: number): CalendarDate {
  return new Date(dayNumber * MS_PER_DAY).toISOString().slice(0, 10);
}

/** Milliseconds since the epoch at 00:00 UTC of a calendar date. */
export function utcMidnightMs(date: CalendarDate): number {
  return dayNumberOf(date) * MS_PER_DAY;
}
