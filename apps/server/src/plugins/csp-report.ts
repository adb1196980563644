import { cspReportRequestSchema, cspViolationsOf } from '@roots/contracts/csp-report';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CSP_REPORT_PATH } from './security-headers';

/** Largest report body browsers may send. */
const MAX_REPORT_BYTES = 16_384;
/** Reports per minute per client IP: a page in a loop must not fill the log. */
export const CSP_REPORTS_PER_MINUTE = 30;

/**
 * `POST /api/csp-report`: logs each Content-Security-Policy violation browsers report (ADR 110),
 * in either format (`application/csp-report` from `report-uri`, `application/reports+json` from
 * `report-to`). Answers 204; rate-limited per IP by the caller's rate-limit scope.
 */
export const cspReportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addContentTypeParser(
    ['application/csp-report', 'application/reports+json'],
    { parseAs: 'string', bodyLimit: MAX_REPORT_BYTES },
    (_request, body, done) => {
      try {
        done(null, JSON.parse(String(body)) as unknown);
      } catch {
        done(Object.assign(new Error('Body is not valid JSON'), { statusCode: 400 }), undefined);
      }
    },
  );
  app.post(
    CSP_REPORT_PATH,
    {
      bodyLimit: MAX_REPORT_BYTES,
      config: { rateLimit: { max: CSP_REPORTS_PER_MINUTE, timeWindow: 60_000 } },
      schema: { body: cspReportRequestSchema, response: { 204: z.null() } },
    },
    async (request, reply) => {
      for (const violation of cspViolationsOf(request.body)) request.log.warn({ csp: violation }, 'content security policy violation');
      return reply.status(204).send(null);
    },
  );
};
