import { describe, expect, it } from 'vitest';
import { biorhythmChartSchema, BIORHYTHM_CYCLES } from '../schemas';
import { biorhythm, biorhythmValue, BIORHYTHM_PERIOD_DAYS, isCriticalDay } from './biorhythm';

/** The formula written out again, independently of the code under test. */
function expected(days: number, period: number): number {
  return Math.sin((2 * Math.PI * days) / period);
}

describe('biorhythmValue', () => {
  it('is zero for every cycle on the day of birth', () => {
    for (const cycle of BIORHYTHM_CYCLES) expect(biorhythmValue(0, BIORHYTHM_PERIOD_DAYS[cycle])).toBe(0);
  });

  it('peaks at a quarter period and bottoms out at three quarters', () => {
    expect(biorhythmValue(23 / 4, 23)).toBeCloseTo(1, 12);
    expect(biorhythmValue(7, 28)).toBeCloseTo(1, 12);
    expect(biorhythmValue(21, 28)).toBeCloseTo(-1, 12);
  });

  it('matches hand-checked values', () => {
    // sin(2π·6/23) = sin(1.639 rad) = 0.9977; sin(2π·10/28) = sin(2.244) = 0.7818; sin(2π·100/33) = sin(19.040) = 0.18925
    expect(biorhythmValue(6, 23)).toBeCloseTo(0.9977, 4);
    expect(biorhythmValue(10, 28)).toBeCloseTo(0.7818, 4);
    expect(biorhythmValue(100, 33)).toBeCloseTo(0.18925, 5);
  });

  it('repeats after a full period', () => {
    expect(biorhythmValue(23 + 5, 23)).toBeCloseTo(biorhythmValue(5, 23), 12);
  });
});

describe('isCriticalDay', () => {
  it('marks the birth day critical for every cycle', () => {
    for (const cycle of BIORHYTHM_CYCLES) expect(isCriticalDay(0, BIORHYTHM_PERIOD_DAYS[cycle])).toBe(true);
  });

  it('marks exactly the days holding a zero crossing of the physical cycle (0, 11.5, 23, 34.5, 46 …)', () => {
    const critical = Array.from({ length: 50 }, (_, day) => day).filter((day) => isCriticalDay(day, 23));
    expect(critical).toEqual([0, 11, 23, 34, 46]);
  });

  it('marks the emotional cycle every 14 days exactly', () => {
    const critical = Array.from({ length: 60 }, (_, day) => day).filter((day) => isCriticalDay(day, 28));
    expect(critical).toEqual([0, 14, 28, 42, 56]);
  });

  it('agrees with the sign-change reading of the definition for every cycle over 10 years', () => {
    for (const cycle of BIORHYTHM_CYCLES) {
      const period = BIORHYTHM_PERIOD_DAYS[cycle];
      for (let day = 0; day < 3653; day += 1) {
        const today = expected(day, period);
        const tomorrow = expected(day + 1, period);
        const exactZeroToday = (2 * day) % period === 0;
        const signChanges = !exactZeroToday && (2 * (day + 1)) % period !== 0 && Math.sign(today) !== Math.sign(tomorrow);
        expect(isCriticalDay(day, period), `${cycle} day ${day}`).toBe(exactZeroToday || signChanges);
      }
    }
  });
});

describe('biorhythm', () => {
  it('charts a range of UTC days with values from the formula', () => {
    const chart = biorhythmChartSchema.parse(biorhythm({ birthDate: '2000-01-01', from: '2000-01-01', to: '2000-02-15' }));
    expect(chart.days).toHaveLength(46);
    expect(chart.cycles.map((entry) => entry.cycle)).toEqual(['physical', 'emotional', 'intellectual']);
    for (const day of chart.days) {
      expect(day.values.physical).toBeCloseTo(expected(day.daysSinceBirth, 23), 12);
      expect(day.values.emotional).toBeCloseTo(expected(day.daysSinceBirth, 28), 12);
      expect(day.values.intellectual).toBeCloseTo(expected(day.daysSinceBirth, 33), 12);
    }
    expect(chart.days[0]).toMatchObject({
      date: '2000-01-01',
      daysSinceBirth: 0,
      criticalCycles: ['physical', 'emotional', 'intellectual'],
    });
    expect(chart.days.find((day) => day.date === '2000-01-12')?.criticalCycles).toEqual(['physical']); // day 11
    expect(chart.disclaimer).toMatch(/for fun/i);
  });

  it('counts whole UTC calendar days across a leap day and a DST change', () => {
    const chart = biorhythm({ birthDate: '1990-03-25', from: '2024-02-28', to: '2024-03-31', cycles: ['physical'] });
    const daysSinceBirth = chart.days.map((day) => day.daysSinceBirth);
    daysSinceBirth.slice(1).forEach((value, index) => expect(value - (daysSinceBirth[index] ?? 0)).toBe(1));
    // 1990-03-25 → 2024-02-28: 33 years of 365 days (12 045) + 8 leap days (1992 … 2020) + 340 days (2023-03-25 → 2024-02-28).
    expect(chart.days[0]?.daysSinceBirth).toBe(12_393);
    expect(chart.days.map((day) => day.date)).toContain('2024-02-29');
  });

  it('returns the secondary cycles when asked', () => {
    const chart = biorhythm({ birthDate: '1980-06-15', from: '2026-11-21', cycles: ['spiritual', 'intuitive', 'aesthetic', 'awareness'] });
    expect(chart.cycles).toEqual([
      { cycle: 'intuitive', periodDays: 38, kind: 'secondary' },
      { cycle: 'aesthetic', periodDays: 43, kind: 'secondary' },
      { cycle: 'awareness', periodDays: 48, kind: 'secondary' },
      { cycle: 'spiritual', periodDays: 53, kind: 'secondary' },
    ]);
    expect(Object.keys(chart.days[0]?.values ?? {})).toHaveLength(4);
  });

  it.each([
    [{ birthDate: '2000-01-10', from: '2000-01-09' }, 'DATE_BEFORE_BIRTH'],
    [{ birthDate: '2000-01-01', from: '2000-02-01', to: '2000-01-31' }, 'INVALID_DATE'],
    [{ birthDate: '2000-01-01', from: '2000-01-01', to: '2001-01-02' }, 'RANGE_TOO_LONG'],
    [{ birthDate: 'yesterday', from: '2000-01-01' }, 'INVALID_DATE'],
  ] as const)('rejects %j with %s', (request, code) => {
    expect(() => biorhythm(request)).toThrow(expect.objectContaining({ code }) as Error);
  });
});
