import type { ProfileResponse } from '@roots/contracts/account';
import type { ReportSummary } from '@roots/contracts/reports';
import { getProfile, listReports } from '../../../lib/webapp-api';

/** What every home section starts from: the profile (birth date) and the user's reports, newest first. */
export type HomeData = { profile: ProfileResponse; reports: ReportSummary[] };

/** The profile and the session's own reports (ADR 075), fetched side by side. */
export async function getHomeData(signal?: AbortSignal): Promise<HomeData> {
  const [profile, reports] = await Promise.all([getProfile(signal), listReports(signal)]);
  return { profile, reports };
}
