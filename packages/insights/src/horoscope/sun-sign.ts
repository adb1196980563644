import { SunPosition } from 'astronomy-engine';
import { utcMidnightMs, type CalendarDate } from '../calendar-date';
import { InsightsError } from '../errors';
import type { SunSignResult } from '../schemas';
import { signOfLongitude } from './zodiac';

export interface BirthMoment {
  /** Birth date as written on the birth certificate, `YYYY-MM-DD` (local calendar). */
  date: CalendarDate;
  /** Local clock time `HH:MM` (24 h). Default: 12:00, the middle of the day, when unknown. */
  time?: string;
  /** Offset of the local clock from UTC in minutes (UTC+02:00 → 120). Default: 0. */
  utcOffsetMinutes?: number;
}

const MS_PER_MINUTE = 60_000;
const MS_PER_DAY = 86_400_000;
const NOON_MINUTES = 12 * 60;
/** Real offsets run from UTC−12:00 to UTC+14:00. */
const MIN_UTC_OFFSET_MINUTES = -12 * 60;
const MAX_UTC_OFFSET_MINUTES = 14 * 60;
const TIME_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/;

function minutesOfDay(time: string): number {
  const match = TIME_PATTERN.exec(time);
  if (!match) throw new InsightsError('INVALID_TIME', `Not a HH:MM time: ${time}`);
  return Number(match[1]) * 60 + Number(match[2]);
}

function sunLongitudeAt(utcMs: number): number {
  return SunPosition(new Date(utcMs)).elon;
}

/**
 * The UTC instant of a birth moment: local clock time minus the UTC offset.
 *
 * @example birthInstantUtc({ date: '1990-03-21', time: '01:30', utcOffsetMinutes: 120 }) // 1990-03-20T23:30:00.000Z
 */
export function birthInstantUtc(birth: BirthMoment): Date {
  const offsetMinutes = birth.utcOffsetMinutes ?? 0;
  if (!Number.isInteger(offsetMinutes) || offsetMinutes < MIN_UTC_OFFSET_MINUTES || offsetMinutes > MAX_UTC_OFFSET_MINUTES) {
    throw new InsightsError('INVALID_UTC_OFFSET', `UTC offset out of range: ${offsetMinutes} min`);
  }
  const localMinutes = birth.time === undefined ? NOON_MINUTES : minutesOfDay(birth.time);
  return new Date(utcMidnightMs(birth.date) + (localMinutes - offsetMinutes) * MS_PER_MINUTE);
}

/**
 * The sun sign of a birth: the tropical sign holding the Sun's apparent ecliptic longitude at the
 * birth instant, computed with astronomy-engine (no date table, so cusp years come out right).
 * Without a birth time the middle of the local day is used, and `onCusp` tells whether the Sun
 * changed sign during that local day (the answer may then be the neighbouring sign).
 *
 * @example sunSign({ date: '1990-08-05' }).sign // 'leo'
 */
export function sunSign(birth: BirthMoment): SunSignResult {
  const instant = birthInstantUtc(birth);
  const sunLongitudeDeg = sunLongitudeAt(instant.getTime());
  let onCusp = false;
  if (birth.time === undefined) {
    const localMidnightUtcMs = utcMidnightMs(birth.date) - (birth.utcOffsetMinutes ?? 0) * MS_PER_MINUTE;
    onCusp = signOfLongitude(sunLongitudeAt(localMidnightUtcMs)) !== signOfLongitude(sunLongitudeAt(localMidnightUtcMs + MS_PER_DAY));
  }
  return { sign: signOfLongitude(sunLongitudeDeg), sunLongitudeDeg, instantUtc: instant.toISOString(), onCusp };
}
