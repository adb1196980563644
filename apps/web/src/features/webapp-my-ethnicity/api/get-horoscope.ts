import type { HoroscopeResponse } from '@roots/contracts/insights';
import { getHoroscope, getProfile } from '../../../lib/webapp-api';

/** The daily horoscope of the profile's birth date, or `needsBirthDate` when the profile has none. */
export type ProfileHoroscope = { kind: 'reading'; reading: HoroscopeResponse } | { kind: 'needsBirthDate' };

/** The profile, then today's horoscope for its birth date (and time). */
export async function getProfileHoroscope(signal?: AbortSignal): Promise<ProfileHoroscope> {
  const profile = await getProfile(signal);
  if (!profile.birth_date) return { kind: 'needsBirthDate' };
  return { kind: 'reading', reading: await getHoroscope(profile.birth_date, profile.birth_time, signal) };
}
