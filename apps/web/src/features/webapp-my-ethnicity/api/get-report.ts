import { reportGetResponseSchema, type Report } from '@roots/contracts/reports';
import { postParsed } from '../../../lib/fetch-json';

/** POST /report/get-report as the signed-in user: the session proves ownership (ADR 075). */
export async function getReport(reportId: string, signal?: AbortSignal): Promise<Report> {
  return (await postParsed('/report/get-report', { report_id: reportId }, reportGetResponseSchema, signal)).report;
}
