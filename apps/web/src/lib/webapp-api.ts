import { profileResponseSchema, type ProfileResponse } from '@roots/contracts/account';
import { horoscopeResponseSchema, type HoroscopeResponse } from '@roots/contracts/insights';
import { reportGetResponseSchema, reportListResponseSchema, type Report, type ReportSummary } from '@roots/contracts/reports';
import { getJson, postParsed } from './api-client';

/**
 * The signed-in area's reads that more than one webapp screen makes; the session proves who asks
 * (ADR 075). Each throws RequestError.
 */

/** GET /api/account/profile: name, birth date and time. */
export function getProfile(signal?: AbortSignal): Promise<ProfileResponse> {
  return getJson('/api/account/profile', profileResponseSchema, signal);
}

/** POST /report/list-reports: the user's reports, newest first. */
export async function listReports(signal?: AbortSignal): Promise<ReportSummary[]> {
  return (await postParsed('/report/list-reports', {}, reportListResponseSchema, signal)).reports;
}

/** POST /report/get-report: one of the user's reports. */
export async function getReport(reportId: string, signal?: AbortSignal): Promise<Report> {
  return (await postParsed('/report/get-report', { report_id: reportId }, reportGetResponseSchema, signal)).report;
}

/**
 * `YYYY-MM-DD` of the reader's local calendar day, `offsetDays` from `now` (the insights are per
 * local day; the server never guesses the reader's zone).
 * @example localCalendarDate(new Date(2026, 0, 31), 1) // '2026-02-01'
 */
export function localCalendarDate(now: Date = new Date(), offsetDays = 0): string {
  const day = new Date(now.getFullYear(), now.getMonth(), now.getDate() + offsetDays);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}

/** GET /api/insights/horoscope: today's reading for the sign of the birth date (and time, when known). */
export function getHoroscope(birthDate: string, birthTime: string | null, signal?: AbortSignal): Promise<HoroscopeResponse> {
  const query = new URLSearchParams({ date: localCalendarDate(), birthDate });
  if (birthTime) query.set('birthTime', birthTime.slice(0, 5));
  return getJson(`/api/insights/horoscope?${query}`, horoscopeResponseSchema, signal);
}
