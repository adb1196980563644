import { dayNumberOf, type CalendarDate } from '../calendar-date';
import type { DailyHoroscope, ZodiacSign } from '../schemas';
import { moonOfDay } from './moon';
import { HOROSCOPE_DISCLAIMER, LOVE_PHRASES, LUCKY_COLOURS, MOOD_PHRASES, WELLBEING_PHRASES, WORK_PHRASES } from './reading-phrases';

const MAX_LUCKY_NUMBER = 99;

/**
 * 32-bit FNV-1a followed by murmur3's finaliser: small and stable across platforms and releases
 * (readings must never reshuffle). The finaliser matters: plain FNV-1a's low bits, which `% n`
 * uses, depend only on the low bits of each character.
 */
function seededHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/** A deterministic choice for one slot of one sign's reading on one day. */
function pick<T>(options: readonly T[], sign: ZodiacSign, date: CalendarDate, slot: string): T {
  return options[seededHash(`${sign}|${date}|${slot}`) % options.length] as T;
}

/**
 * The daily reading for a sign: the same sign and day always give the same text (seeded by
 * sign + date, no stored state), and each slot is drawn independently so consecutive days differ.
 * The Moon's sign and phase for the day come from astronomy-engine as extra context.
 *
 * @example dailyHoroscope('leo', '2026-11-21').luckyColour // same value on every call
 */
export function dailyHoroscope(sign: ZodiacSign, date: CalendarDate): DailyHoroscope {
  dayNumberOf(date); // validates the date: throws INVALID_DATE
  return {
    sign,
    date,
    mood: pick(MOOD_PHRASES, sign, date, 'mood'),
    love: pick(LOVE_PHRASES, sign, date, 'love'),
    work: pick(WORK_PHRASES, sign, date, 'work'),
    wellbeing: pick(WELLBEING_PHRASES, sign, date, 'wellbeing'),
    luckyNumber: (seededHash(`${sign}|${date}|number`) % MAX_LUCKY_NUMBER) + 1,
    luckyColour: pick(LUCKY_COLOURS, sign, date, 'colour'),
    moon: moonOfDay(date),
    disclaimer: HOROSCOPE_DISCLAIMER,
  };
}
