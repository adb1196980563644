import { reportListResponseSchema, type ReportSummary } from '@roots/contracts/reports';
import { postParsed } from '../../../lib/fetch-json';

/** POST /report/list-reports as the signed-in user (ADR 075): their reports, newest first. */
export async function listReports(signal?: AbortSignal): Promise<ReportSummary[]> {
  return (await postParsed('/report/list-reports', {}, reportListResponseSchema, signal)).reports;
}
