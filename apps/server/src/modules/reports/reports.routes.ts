import { API_MESSAGES } from '@roots/contracts';
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
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors';
import type { EmailRateLimiter } from '../../lib/email-rate-limit';
import type { SessionReader } from '../auth/session';
import { renderReportPdf } from '../pdf/report-pdf';
import { decodeImagePayload } from './image-payload';
import type { ReportReader, ReportsService } from './reports.service';

type ReportRoutesOptions = {
  service: ReportsService;
  emailLimiter: EmailRateLimiter;
  sessions: SessionReader;
  /** @throws AppError FORBIDDEN unless the request proves it owns the purchase (ADR 085). */
  assertPurchaseProof: (request: FastifyRequest, subscriptionId: string) => Promise<void>;
  productName: string;
};

/** JSON around the base64 photo: a few fields, well under this. */
const JSON_ENVELOPE_BYTES = 8_192;

/** The report service of product-spec §7: `/report/*` and `/pdf-report/*`, all POST. */
export const reportRoutes: FastifyPluginAsyncZod<ReportRoutesOptions> = async (
  app,
  { service, emailLimiter, sessions, assertPurchaseProof, productName },
) => {
  /**
   * A body naming a purchase reads as that purchase, when the request proves it owns it (ADR 085);
   * one without `email` needs the session (ADR 075).
   */
  const readerOf = async (
    request: FastifyRequest,
    body: { subscription_id?: string | undefined; email?: string | undefined },
  ): Promise<ReportReader> => {
    if (body.email === undefined || body.subscription_id === undefined) return { by: 'session', user: await sessions.require(request) };
    await assertPurchaseProof(request, body.subscription_id);
    return { by: 'purchase', requester: { email: body.email, subscription_id: body.subscription_id } };
  };

  const createOptions = {
    bodyLimit: MAX_REPORT_IMAGE_BASE64_CHARS + JSON_ENVELOPE_BYTES,
    schema: { body: reportCreateRequestSchema, response: { 200: reportCreateResponseSchema } },
  };
  for (const path of ['/report/create', '/pdf-report/create']) {
    app.post(path, createOptions, async (request) => {
      const { email, subscription_id, image, kind, face } = request.body;
      if (email === undefined || subscription_id === undefined) {
        // No email (the schema refuses an email without its purchase): the signed-in app, whose
        // session is the proof (ADR 145).
        const user = await sessions.require(request);
        await emailLimiter.hit(user.email);
        return service.createForUser(user, { subscriptionId: subscription_id, kind, face }, decodeImagePayload(image), request.ip);
      }
      await emailLimiter.hit(email);
      await assertPurchaseProof(request, subscription_id);
      return service.create({ email, subscriptionId: subscription_id, kind, face }, decodeImagePayload(image), request.ip);
    });
  }

  app.post(
    '/report/list-reports',
    { schema: { body: reportListRequestSchema, response: { 200: reportListResponseSchema } } },
    async (request) => {
      const reader = await readerOf(request, request.body);
      return { reports: await service.list(reader, reader.by === 'session' ? request.body.subscription_id : undefined) };
    },
  );

  app.post(
    '/report/get-report',
    { schema: { body: reportGetRequestSchema, response: { 200: reportGetResponseSchema } } },
    async (request) => ({
      report: await service.get(await readerOf(request, request.body), request.body.report_id),
    }),
  );

  // Linking and feedback need the signed-in user: `userId` must be the session's (ADR 071, 075).
  app.post(
    '/report/update',
    { schema: { body: reportUpdateRequestSchema, response: { 200: reportUpdateResponseSchema } } },
    async (request) => {
      const user = await sessions.require(request);
      if (request.body.userId !== user.id) throw new AppError('FORBIDDEN', API_MESSAGES.userIdNotSignedInUser);
      const { subscription_id, email, feedback } = request.body;
      return service.update(user, { subscriptionId: subscription_id, email, feedback });
    },
  );

  app.post('/pdf-report/content', { schema: { body: pdfReportContentRequestSchema } }, async (request, reply) => {
    const report = await service.completed(await readerOf(request, request.body), request.body.report_id);
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
