import { profileResponseSchema } from '@roots/contracts/account';
import { horoscopeResponseSchema, type HoroscopeResponse } from '@roots/contracts/insights';
import { getJson } from '../../../lib/fetch-json';

/** The reader's local calendar day as `YYYY-MM-DD` (the horoscope is per local day; the server never guesses). */
export function localCalendarDate(now: Date = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The daily horoscope of the profile's birth date, or `needsBirthDate` when the profile has none. */
export type ProfileHoroscope = { kind: 'reading'; reading: HoroscopeResponse } | { kind: 'needsBirthDate' };

/** GET /api/account/profile, then GET /api/insights/horoscope for today with the birth date (and time). */
export async function getProfileHoroscope(signal?: AbortSignal): Promise<ProfileHoroscope> {
  const profile = await getJson('/api/account/profile', profileResponseSchema, signal);
  if (!profile.birth_date) return { kind: 'needsBirthDate' };
  const query = new URLSearchParams({ date: localCalendarDate(), birthDate: profile.birth_date });
  if (profile.birth_time) query.set('birthTime', profile.birth_time.slice(0, 5));
  return { kind: 'reading', reading: await getJson(`/api/insights/horoscope?${query}`, horoscopeResponseSchema, signal) };
}
