import { z } from 'zod';

/** Longest text kept of one report field; a report is evidence to read, not a payload to store. */
const MAX_FIELD_LENGTH = 2_048;
const field = z.string().max(MAX_FIELD_LENGTH).optional();
const count = z.number().int().optional();

/** The `csp-report` body of the older `report-uri` reports (`application/csp-report`). */
export const legacyCspReportSchema = z.object({
  'csp-report': z.object({
    'document-uri': field,
    'blocked-uri': field,
    'violated-directive': field,
    'effective-directive': field,
    disposition: field,
    'source-file': field,
    'line-number': count,
    'column-number': count,
  }),
});

/** One report of the Reporting API (`report-to`, `application/reports+json`). */
export const reportingApiReportSchema = z.object({
  type: z.string().max(64),
  url: field,
  body: z
    .object({
      documentURL: field,
      blockedURL: field,
      effectiveDirective: field,
      disposition: field,
      sourceFile: field,
      lineNumber: count,
      columnNumber: count,
    })
    .optional(),
});

/** `POST /api/csp-report`: what browsers send about a Content-Security-Policy violation. */
export const cspReportRequestSchema = z.union([legacyCspReportSchema, z.array(reportingApiReportSchema).max(50)]);
export type CspReportRequest = z.infer<typeof cspReportRequestSchema>;

/** A violation as the server logs it. */
export type CspViolation = { directive: string; blocked: string; document: string; source?: string };

/** Reads the violations of either report format; origins and paths only (queries may hold personal data). */
export function cspViolationsOf(report: CspReportRequest): CspViolation[] {
  const withoutQuery = (url: string | undefined) => (url ?? '').split(/[?#]/)[0] ?? '';
  if (Array.isArray(report)) {
    return report
      .filter((entry) => entry.type === 'csp-violation' && entry.body)
      .map(({ body }) => ({
        directive: body?.effectiveDirective ?? '',
        blocked: withoutQuery(body?.blockedURL),
        document: withoutQuery(body?.documentURL),
        ...(body?.sourceFile ? { source: withoutQuery(body.sourceFile) } : {}),
      }));
  }
  const body = report['csp-report'];
  return [
    {
      directive: body['effective-directive'] ?? body['violated-directive'] ?? '',
      blocked: withoutQuery(body['blocked-uri']),
      document: withoutQuery(body['document-uri']),
      ...(body['source-file'] ? { source: withoutQuery(body['source-file']) } : {}),
    },
  ];
}
