import { Body, EclipticGeoMoon, Illumination, MoonPhase as moonPhaseAngle } from 'astronomy-engine';
import { utcMidnightMs, type CalendarDate } from '../calendar-date';
import { MOON_PHASES, type MoonContext, type MoonPhase } from '../schemas';
import { signOfLongitude } from './zodiac';

const NOON_OFFSET_MS = 12 * 3_600_000;
const DEGREES_PER_PHASE = 45;

/**
 * The named phase for a Sun–Moon elongation angle: eight 45° sectors centred on 0° (new),
 * 90° (first quarter), 180° (full) and 270° (last quarter).
 *
 * @example phaseOfAngle(185) // 'full_moon'
 */
export function phaseOfAngle(phaseAngleDeg: number): MoonPhase {
  const normalised = ((phaseAngleDeg % 360) + 360) % 360;
  const sector = Math.floor((normalised + DEGREES_PER_PHASE / 2) / DEGREES_PER_PHASE) % MOON_PHASES.length;
  return MOON_PHASES[sector] as MoonPhase;
}

/**
 * The Moon's sign and phase at 12:00 UTC of a day: the same answer for every reader of that
 * day's horoscope, wherever they are.
 *
 * @example moonOfDay('2024-04-08').phase // 'new_moon' (the day of a total solar eclipse)
 */
export function moonOfDay(date: CalendarDate): MoonContext {
  const instant = new Date(utcMidnightMs(date) + NOON_OFFSET_MS);
  const phaseAngleDeg = moonPhaseAngle(instant);
  return {
    sign: signOfLongitude(EclipticGeoMoon(instant).lon),
    phase: phaseOfAngle(phaseAngleDeg),
    phaseAngleDeg,
    illuminatedPercent: Math.round(Illumination(Body.Moon, instant).phase_fraction * 100),
  };
}
