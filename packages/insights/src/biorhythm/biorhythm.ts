import { calendarDateOf, dayNumberOf, type CalendarDate } from '../calendar-date';
import { InsightsError } from '../errors';
import { BIORHYTHM_CYCLES, type BiorhythmChart, type BiorhythmCycle, type BiorhythmDay } from '../schemas';

/**
 * Cycle lengths in days. The three primary cycles are the classic Fliess/Swoboda ones; the four
 * secondary cycles are the ones most biorhythm tools add (ADR 021 lists the definitions checked).
 */
export const BIORHYTHM_PERIOD_DAYS: Readonly<Record<BiorhythmCycle, number>> = {
  physical: 23,
  emotional: 28,
  intellectual: 33,
  intuitive: 38,
  aesthetic: 43,
  awareness: 48,
  spiritual: 53,
};

export const PRIMARY_BIORHYTHM_CYCLES: readonly BiorhythmCycle[] = ['physical', 'emotional', 'intellectual'];

/** The longest range one call returns (a year and a day, enough for any chart). */
export const MAX_BIORHYTHM_RANGE_DAYS = 366;

/** Shown with every chart (product rule: biorhythm is for fun, not a health tool). */
export const BIORHYTHM_DISCLAIMER =
  'For fun only. Biorhythm theory has no scientific support; do not use it for health or safety decisions.';

/**
 * The value of one cycle: sin(2π · daysSinceBirth / periodDays), in [-1, 1].
 *
 * @example biorhythmValue(0, 23) // 0; biorhythmValue(23 / 4, 23) // 1
 */
export function biorhythmValue(daysSinceBirth: number, periodDays: number): number {
  return Math.sin((2 * Math.PI * daysSinceBirth) / periodDays);
}

/**
 * Whether a whole day is critical for a cycle. Definition: day `d` (whole UTC days since the
 * birth date) is critical when the curve sin(2π·t/P) crosses zero during that day, i.e. when some
 * multiple of half the period, k·P/2, lies in [d, d + 1). Equivalently the value is exactly 0 at
 * the start of day d, or its sign differs between day d and day d + 1. Every cycle therefore has
 * exactly one critical day per half period, and the birth day (d = 0) is critical for all.
 * Computed in integers (2d and P are integers) so no rounding error can move a critical day.
 *
 * @example isCriticalDay(11, 23) // true: the physical curve crosses zero at day 11.5
 */
export function isCriticalDay(daysSinceBirth: number, periodDays: number): boolean {
  if (!Number.isInteger(daysSinceBirth) || !Number.isInteger(periodDays) || periodDays <= 0) {
    throw new RangeError('isCriticalDay expects whole days and a positive whole period');
  }
  // Smallest k with k·P ≥ 2d; critical iff that crossing k·P/2 is before d + 1, i.e. k·P < 2d + 2.
  const twiceDays = 2 * daysSinceBirth;
  const firstCrossing = Math.ceil(twiceDays / periodDays);
  return firstCrossing * periodDays < twiceDays + 2;
}

export interface BiorhythmRequest {
  /** Birth date `YYYY-MM-DD`; the clock time of birth is ignored (the classic theory counts whole days). */
  birthDate: CalendarDate;
  /** First day of the chart, `YYYY-MM-DD`, not before the birth date. */
  from: CalendarDate;
  /** Last day of the chart (inclusive). Default: `from` (a single day). */
  to?: CalendarDate;
  /** Cycles to compute. Default: the three primary cycles. */
  cycles?: readonly BiorhythmCycle[];
}

/**
 * A biorhythm chart for a range of UTC calendar days: each day's value per cycle and the cycles
 * for which it is a critical day. Whole-day counting on UTC dates means a user's timezone can
 * never shift a value.
 *
 * @example biorhythm({ birthDate: '1990-01-01', from: '2026-11-21', to: '2026-11-27', cycles: ['physical'] }).days.length // 7
 */
export function biorhythm(request: BiorhythmRequest): BiorhythmChart {
  const birthDay = dayNumberOf(request.birthDate);
  const firstDay = dayNumberOf(request.from);
  const lastDay = dayNumberOf(request.to ?? request.from);
  if (firstDay < birthDay) throw new InsightsError('DATE_BEFORE_BIRTH', `${request.from} is before the birth date ${request.birthDate}`);
  if (lastDay < firstDay) throw new InsightsError('INVALID_DATE', `Range ends (${request.to}) before it starts (${request.from})`);
  if (lastDay - firstDay + 1 > MAX_BIORHYTHM_RANGE_DAYS) {
    throw new InsightsError('RANGE_TOO_LONG', `At most ${MAX_BIORHYTHM_RANGE_DAYS} days per chart`);
  }
  const cycles = BIORHYTHM_CYCLES.filter((cycle) => (request.cycles ?? PRIMARY_BIORHYTHM_CYCLES).includes(cycle));

  const days: BiorhythmDay[] = [];
  for (let dayNumber = firstDay; dayNumber <= lastDay; dayNumber += 1) {
    const daysSinceBirth = dayNumber - birthDay;
    const values: BiorhythmDay['values'] = {};
    const criticalCycles: BiorhythmCycle[] = [];
    for (const cycle of cycles) {
      values[cycle] = biorhythmValue(daysSinceBirth, BIORHYTHM_PERIOD_DAYS[cycle]);
      if (isCriticalDay(daysSinceBirth, BIORHYTHM_PERIOD_DAYS[cycle])) criticalCycles.push(cycle);
    }
    days.push({ date: calendarDateOf(dayNumber), daysSinceBirth, values, criticalCycles });
  }

  return {
    birthDate: request.birthDate,
    cycles: cycles.map((cycle) => ({
      cycle,
      periodDays: BIORHYTHM_PERIOD_DAYS[cycle],
      kind: PRIMARY_BIORHYTHM_CYCLES.includes(cycle) ? 'primary' : 'secondary',
    })),
    days,
    disclaimer: BIORHYTHM_DISCLAIMER,
  };
}
