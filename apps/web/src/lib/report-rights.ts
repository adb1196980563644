import type { ReportStatus } from '@roots/contracts/reports';
import { includesFaceAnalysis, type AccessKind } from '@roots/contracts/access';

/**
 * True when the customer's purchases, with what they include, hold the face analysis and its reports
 * (product-spec §6): every purchase, Profile Pro included (ADR 194).
 */
export function includesReports(access: readonly AccessKind[]): boolean {
  return includesFaceAnalysis(access);
}

/**
 * A report is owed and missing (ADR 145): the purchases include reports, and no report is completed
 * or being made — none at all, or only failed and expired ones. The signed-in app then offers
 * 'Take a selfie'.
 */
export function reportOwed(access: readonly AccessKind[], reports: ReadonlyArray<{ status: ReportStatus }>): boolean {
  return includesReports(access) && reports.every((report) => report.status === 'failed' || report.status === 'expired');
}
