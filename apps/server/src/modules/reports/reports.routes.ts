import {
  MAX_REPORT_IMAGE_BASE64_CHARS,
  pdfReportContentRequestSchema,
  reportCreateRequestSchema,
  reportCreateResponseSchema,
  reportGetRequestSchema,
  reportGetResponseSchema,
  reportListRequestSchema,
  reportListResponseSchema,
  reportUpdateRequestSchema,
  reportUpdateResponseSchema,
} from '@roots/contracts/reports';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../errors';
import type { EmailRateLimiter } from '../../lib/email-rate-limit';
import type { SessionReader } from '../auth/session';
import { renderReportPdf } from '../pdf/report-pdf';
import { decodeImagePayload } from './image-payload';
import type { ReportsService } from './reports.service';

type ReportRoutesOptions = { service: ReportsService; emailLimiter: EmailRateLimiter; sessions: SessionReader; productName: string };

/** JSON around the base64 photo: a few fields, well under this. */
const JSON_ENVELOPE_BYTES = 8_192;

/** The report service of product-spec §7: `/report/*` and `/pdf-report/*`, all POST. */
export const reportRoutes: FastifyPluginAsyncZod<ReportRoutesOptions> = async (app, { service, emailLimiter, sessions, productName }) => {
  const createOptions = {
    bodyLimit: MAX_REPORT_IMAGE_BASE64_CHARS + JSON_ENVELOPE_BYTES,
    schema: { body: reportCreateRequestSchema, response: { 200: reportCreateResponseSchema } },
  };
  for (const path of ['/report/create', '/pdf-report/create']) {
    app.post(path, createOptions, async (request) => {
      const { email, subscription_id, image, kind } = request.body;
      emailLimiter.hit(email);
      return service.create({ email, subscriptionId: subscription_id, kind }, decodeImagePayload(image));
    });
  }

  app.post(
    '/report/list-reports',
    { schema: { body: reportListRequestSchema, response: { 200: reportListResponseSchema } } },
    async (request) => ({
      reports: await service.list(request.body),
    }),
  );

  app.post(
    '/report/get-report',
    { schema: { body: reportGetRequestSchema, response: { 200: reportGetResponseSchema } } },
    async (request) => ({
      report: await service.get(request.body, request.body.report_id),
    }),
  );

  // Linking needs the signed-in user: `userId` must be the session's (ADR 071).
  app.post(
    '/report/update',
    { schema: { body: reportUpdateRequestSchema, response: { 200: reportUpdateResponseSchema } } },
    async (request) => {
      const user = await sessions.require(request);
      if (request.body.userId !== user.id) throw new AppError('FORBIDDEN', 403, 'userId is not the signed-in user');
      return { updated: await service.linkUser(request.body, user) };
    },
  );

  app.post('/pdf-report/content', { schema: { body: pdfReportContentRequestSchema } }, async (request, reply) => {
    const report = await service.completed(request.body, request.body.report_id);
    const pdf = await renderReportPdf(report, { productName });
    return reply
      .type('application/pdf')
      .header(
        'content-disposition',
        `attachment; filename="${productName.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-report-${report.report_id}.pdf"`,
      )
      .header('cache-control', 'no-store')
      .send(pdf);
  });
};
