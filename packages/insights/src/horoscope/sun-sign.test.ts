import { Seasons, SearchSunLongitude } from 'astronomy-engine';
import { describe, expect, it } from 'vitest';
import { birthInstantUtc, sunSign } from './sun-sign';
import { signOfLongitude } from './zodiac';

const HOUR_MS = 3_600_000;

/** A birth moment in UTC for an instant (date + HH:MM, offset 0). */
function birthAt(instant: Date): { date: string; time: string; utcOffsetMinutes: number } {
  const iso = instant.toISOString();
  return { date: iso.slice(0, 10), time: iso.slice(11, 16), utcOffsetMinutes: 0 };
}

describe('sunSign', () => {
  it.each([2000, 2024, 1987])('changes from pisces to aries at the March equinox of %i (±1 hour)', (year) => {
    const equinox = Seasons(year).mar_equinox.date;
    expect(sunSign(birthAt(new Date(equinox.getTime() - HOUR_MS))).sign).toBe('pisces');
    expect(sunSign(birthAt(new Date(equinox.getTime() + HOUR_MS))).sign).toBe('aries');
  });

  it.each([
    [30, 'aries', 'taurus'],
    [120, 'cancer', 'leo'],
    [270, 'sagittarius', 'capricorn'],
  ] as const)('changes sign when the Sun reaches %i° in 2023 (±1 hour)', (longitudeDeg, before, after) => {
    const ingress = SearchSunLongitude(longitudeDeg, new Date('2023-01-01T00:00:00Z'), 366);
    if (!ingress) throw new Error('no ingress found');
    expect(sunSign(birthAt(new Date(ingress.date.getTime() - HOUR_MS))).sign).toBe(before);
    expect(sunSign(birthAt(new Date(ingress.date.getTime() + HOUR_MS))).sign).toBe(after);
  });

  it.each([
    ['1990-01-05', 'capricorn'],
    ['1985-02-10', 'aquarius'],
    ['2001-03-05', 'pisces'],
    ['1979-04-10', 'aries'],
    ['1995-05-05', 'taurus'],
    ['1999-06-01', 'gemini'],
    ['2010-07-04', 'cancer'],
    ['1990-08-05', 'leo'],
    ['1969-09-08', 'virgo'],
    ['2005-10-10', 'libra'],
    ['1971-11-11', 'scorpio'],
    ['1993-12-07', 'sagittarius'],
  ] as const)('puts a mid-sign birth on %s in %s', (date, sign) => {
    const result = sunSign({ date });
    expect(result.sign).toBe(sign);
    expect(result.onCusp).toBe(false);
  });

  it('uses the UTC offset: 01:30 at UTC+02:00 is 23:30 UTC the day before', () => {
    expect(birthInstantUtc({ date: '1990-03-21', time: '01:30', utcOffsetMinutes: 120 }).toISOString()).toBe('1990-03-20T23:30:00.000Z');
  });

  it('gives different signs for the same local clock time in different timezones around an ingress', () => {
    // The 2024 March equinox was at 2024-03-20T03:06 UTC: 03:30 in Paris (UTC+1) is 02:30 UTC, before it.
    const equinox = Seasons(2024).mar_equinox.date;
    expect(equinox.toISOString().slice(0, 16)).toBe('2024-03-20T03:06');
    expect(sunSign({ date: '2024-03-20', time: '03:30', utcOffsetMinutes: 60 }).sign).toBe('pisces'); // 02:30 UTC
    expect(sunSign({ date: '2024-03-20', time: '03:30', utcOffsetMinutes: 0 }).sign).toBe('aries'); // 03:30 UTC
  });

  it('flags a cusp day when no birth time is given', () => {
    const result = sunSign({ date: '2024-03-20' });
    expect(result.onCusp).toBe(true);
    expect(result.sign).toBe('aries'); // noon UTC, after the 03:06 UTC equinox
    expect(sunSign({ date: '2024-03-20', time: '01:00' }).onCusp).toBe(false);
  });

  it('reports the longitude and instant it used', () => {
    const result = sunSign({ date: '2000-06-21', time: '12:00' });
    expect(result.instantUtc).toBe('2000-06-21T12:00:00.000Z');
    expect(result.sunLongitudeDeg).toBeGreaterThan(89);
    expect(result.sunLongitudeDeg).toBeLessThan(91);
  });

  it.each([
    [{ date: '1990-02-30' }, 'INVALID_DATE'],
    [{ date: '90-01-01' }, 'INVALID_DATE'],
    [{ date: '1990-01-01', time: '24:00' }, 'INVALID_TIME'],
    [{ date: '1990-01-01', utcOffsetMinutes: 15 * 60 }, 'INVALID_UTC_OFFSET'],
  ] as const)('rejects %j with %s', (birth, code) => {
    expect(() => sunSign(birth)).toThrow(expect.objectContaining({ code }) as Error);
  });
});

describe('signOfLongitude', () => {
  it.each([
    [0, 'aries'],
    [29.999, 'aries'],
    [30, 'taurus'],
    [359.999, 'pisces'],
    [360, 'aries'],
    [-0.001, 'pisces'],
  ] as const)('maps %f° to %s', (longitude, sign) => {
    expect(signOfLongitude(longitude)).toBe(sign);
  });
});
