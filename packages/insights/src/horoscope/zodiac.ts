import { ZODIAC_SIGNS, type ZodiacSign } from '../schemas';

const DEGREES_PER_SIGN = 30;

/**
 * The tropical sign for an ecliptic longitude of date: each sign is an exact 30° slice starting
 * at the March equinox point, so the sign follows from the longitude alone.
 *
 * @example signOfLongitude(0) // 'aries'; signOfLongitude(359.99) // 'pisces'
 */
export function signOfLongitude(longitudeDeg: number): ZodiacSign {
  const normalised = ((longitudeDeg % 360) + 360) % 360;
  return ZODIAC_SIGNS[Math.floor(normalised / DEGREES_PER_SIGN)] as ZodiacSign;
}
