import { profileResponseSchema, type ProfileResponse } from '@roots/contracts/account';
import { reportListResponseSchema, type ReportSummary } from '@roots/contracts/reports';
import { getJson, postParsed } from '../../../lib/fetch-json';

/** What every home section starts from: the profile (birth date) and the user's reports, newest first. */
export type HomeData = { profile: ProfileResponse; reports: ReportSummary[] };

/** GET /api/account/profile and POST /report/list-reports (the session's own reports, ADR 075). */
export async function getHomeData(signal?: AbortSignal): Promise<HomeData> {
  const [profile, list] = await Promise.all([
    getJson('/api/account/profile', profileResponseSchema, signal),
    postParsed('/report/list-reports', {}, reportListResponseSchema, signal),
  ]);
  return { profile, reports: list.reports };
}
