import { describe, expect, it } from 'vitest';
import { calendarDateOf, dayNumberOf } from '../calendar-date';
import { dailyHoroscopeSchema, ZODIAC_SIGNS } from '../schemas';
import { dailyHoroscope } from './daily-horoscope';
import { moonOfDay, phaseOfAngle } from './moon';

function consecutiveDates(start: string, count: number): string[] {
  return Array.from({ length: count }, (_, offset) => calendarDateOf(dayNumberOf(start) + offset));
}

function readingText(reading: ReturnType<typeof dailyHoroscope>): string {
  return [reading.mood, reading.love, reading.work, reading.wellbeing, reading.luckyNumber, reading.luckyColour].join('|');
}

describe('dailyHoroscope', () => {
  it('gives the same reading for the same sign and day', () => {
    expect(dailyHoroscope('leo', '2026-11-21')).toEqual(dailyHoroscope('leo', '2026-11-21'));
  });

  it('matches its schema and carries the entertainment label', () => {
    const reading = dailyHoroscopeSchema.parse(dailyHoroscope('virgo', '2026-01-01'));
    expect(reading.disclaimer).toMatch(/entertainment/i);
  });

  it.each(ZODIAC_SIGNS)('varies across 30 consecutive days for %s', (sign) => {
    const readings = consecutiveDates('2026-11-01', 30).map((date) => dailyHoroscope(sign, date));
    expect(new Set(readings.map(readingText)).size).toBe(30);
    expect(new Set(readings.map((reading) => reading.mood)).size).toBeGreaterThanOrEqual(10);
    expect(new Set(readings.map((reading) => reading.luckyColour)).size).toBeGreaterThanOrEqual(8);
  });

  it('never repeats the whole reading on consecutive days over a year, for any sign', () => {
    for (const sign of ZODIAC_SIGNS) {
      const texts = consecutiveDates('2027-01-01', 366).map((date) => readingText(dailyHoroscope(sign, date)));
      texts.slice(1).forEach((text, index) => expect(text).not.toBe(texts[index]));
    }
  });

  it('gives different signs different readings on the same day', () => {
    const texts = ZODIAC_SIGNS.map((sign) => readingText(dailyHoroscope(sign, '2026-11-21')));
    expect(new Set(texts).size).toBe(ZODIAC_SIGNS.length);
  });

  it('rejects an impossible date', () => {
    expect(() => dailyHoroscope('leo', '2026-13-01')).toThrow(expect.objectContaining({ code: 'INVALID_DATE' }) as Error);
  });
});

describe('moonOfDay', () => {
  it.each([
    ['2024-04-08', 'new_moon'], // total solar eclipse: new moon at 18:21 UTC
    ['2024-04-23', 'full_moon'], // full moon at 23:49 UTC
    ['2024-04-15', 'first_quarter'], // first quarter at 19:13 UTC
    ['2024-05-01', 'last_quarter'], // last quarter at 11:27 UTC
  ] as const)('knows the phase on %s is %s', (date, phase) => {
    expect(moonOfDay(date).phase).toBe(phase);
  });

  it('reports a nearly dark disc at new moon and a nearly full one at full moon', () => {
    expect(moonOfDay('2024-04-08').illuminatedPercent).toBeLessThanOrEqual(2);
    expect(moonOfDay('2024-04-23').illuminatedPercent).toBeGreaterThanOrEqual(98);
  });

  it('puts the Moon opposite the Sun at a full moon: Sun in aries, Moon in libra or scorpio on 2024-04-23', () => {
    expect(['libra', 'scorpio']).toContain(moonOfDay('2024-04-23').sign);
  });

  it.each([
    [0, 'new_moon'],
    [22.4, 'new_moon'],
    [22.5, 'waxing_crescent'],
    [90, 'first_quarter'],
    [180, 'full_moon'],
    [270, 'last_quarter'],
    [337.5, 'new_moon'],
    [359.9, 'new_moon'],
  ] as const)('names the %f° phase angle %s', (angle, phase) => {
    expect(phaseOfAngle(angle)).toBe(phase);
  });
});
