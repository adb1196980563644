import {
  adminActionDoneSchema,
  adminCancelRequestSchema,
  adminDeleteCustomerRequestSchema,
  adminRefundRequestSchema,
  adminRefundResponseSchema,
  adminResendRequestSchema,
  auditListSchema,
  customerLookupQuerySchema,
  customerRecordSchema,
  dataExportSchema,
  dateRangeQuerySchema,
  FACE_ANALYSIS_NOT_OFFERED,
  funnelReportSchema,
  geoPolicySchema,
  operatorMeSchema,
  qualityReportSchema,
  reconciliationSchema,
  revenueReportSchema,
} from '@roots/contracts/admin';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config/env';
import { AppError } from '../../errors';
import type { SessionReader } from '../auth/session';
import type { AdminService } from './admin.service';
import type { DataExportService } from './data-export';
import { FACE_ANALYSIS_ROUTES, policyOfRequest } from './geo-policy';
import { requireOperator } from './operator-guard';
import { QUEUE_ENDPOINTS, queuesRoutes } from './queues.routes';
import type { BillingContext } from '../subscriptions/context';

type AdminRoutesOptions = { admin: AdminService; sessions: SessionReader; context: BillingContext };

/** `/api/admin/*`: every route refuses visitors (401) and customers (403) before anything else. */
export const adminRoutes: FastifyPluginAsyncZod<AdminRoutesOptions> = async (app, { admin, sessions, context }) => {
  const operator = (request: Parameters<typeof requireOperator>[0]) => requireOperator(request, sessions, admin);
  await app.register(queuesRoutes, { context, operator });

  app.get('/api/admin/me', { schema: { response: { 200: operatorMeSchema } } }, async (request) => ({
    email: (await operator(request)).email,
    operator: true as const,
  }));

  app.get('/api/admin/audit', { schema: { response: { 200: auditListSchema } } }, async (request) => {
    await operator(request);
    return { entries: await admin.auditLog() };
  });

  app.get(
    '/api/admin/funnel',
    { schema: { querystring: dateRangeQuerySchema, response: { 200: funnelReportSchema } } },
    async (request) => {
      await operator(request);
      return admin.funnel(request.query);
    },
  );

  app.get(
    '/api/admin/revenue',
    { schema: { querystring: dateRangeQuerySchema, response: { 200: revenueReportSchema } } },
    async (request) => {
      await operator(request);
      return admin.revenue(request.query);
    },
  );

  app.get(
    '/api/admin/revenue/reconciliation',
    { schema: { querystring: dateRangeQuerySchema, response: { 200: reconciliationSchema } } },
    async (request) => {
      await operator(request);
      return admin.reconcile(request.query);
    },
  );

  app.get(
    '/api/admin/quality',
    { schema: { querystring: dateRangeQuerySchema, response: { 200: qualityReportSchema } } },
    async (request) => {
      await operator(request);
      return admin.quality(request.query);
    },
  );

  app.get(
    '/api/admin/customers',
    { schema: { querystring: customerLookupQuerySchema, response: { 200: customerRecordSchema } } },
    async (request) => admin.lookup(await operator(request), request.query.q),
  );

  app.post(
    '/api/admin/customers/refund',
    { schema: { body: adminRefundRequestSchema, response: { 200: adminRefundResponseSchema } } },
    async (request) => admin.refund(await operator(request), request.body),
  );

  app.post(
    '/api/admin/customers/cancel',
    { schema: { body: adminCancelRequestSchema, response: { 200: adminActionDoneSchema } } },
    async (request) => {
      await admin.cancel(await operator(request), request.body);
      return { ok: true as const };
    },
  );

  app.post(
    '/api/admin/customers/resend',
    { schema: { body: adminResendRequestSchema, response: { 200: adminActionDoneSchema } } },
    async (request) => {
      await admin.resend(await operator(request), request.body);
      return { ok: true as const };
    },
  );

  app.post(
    '/api/admin/customers/delete',
    { schema: { body: adminDeleteCustomerRequestSchema, response: { 200: adminActionDoneSchema } } },
    async (request) => {
      await admin.deleteCustomer(await operator(request), request.body.email);
      return { ok: true as const };
    },
  );
};

/** Every operator endpoint as `METHOD url` (the access-control test walks them all). */
export const ADMIN_ENDPOINTS = [
  'GET /api/admin/me',
  'GET /api/admin/audit',
  'GET /api/admin/funnel',
  'GET /api/admin/revenue',
  'GET /api/admin/revenue/reconciliation',
  'GET /api/admin/quality',
  'GET /api/admin/customers',
  'POST /api/admin/customers/refund',
  'POST /api/admin/customers/cancel',
  'POST /api/admin/customers/resend',
  'POST /api/admin/customers/delete',
  ...QUEUE_ENDPOINTS,
] as const;

type CustomerRoutesOptions = { config: Config; sessions: SessionReader; exporter: DataExportService };

/** The compliance endpoints customers and visitors use: the geo policy and the data download. */
export const complianceRoutes: FastifyPluginAsyncZod<CustomerRoutesOptions> = async (app, { config, sessions, exporter }) => {
  app.get('/api/geo-policy', { schema: { response: { 200: geoPolicySchema } } }, async (request, reply) => {
    void reply.header('cache-control', 'private, no-store');
    return policyOfRequest(config, request);
  });

  app.get('/api/account/export', { schema: { response: { 200: dataExportSchema } } }, async (request, reply) => {
    const user = await sessions.require(request);
    void reply.header('content-disposition', 'attachment; filename="my-data.json"').header('cache-control', 'no-store');
    return exporter.export(user);
  });
};

/** Refuses the face-analysis endpoints where the geo policy does not offer them (ADR 123). */
export function enforceGeoPolicy(app: FastifyInstance, config: Config): void {
  app.addHook('onRequest', async (request) => {
    const path = request.url.split('?')[0];
    if (!FACE_ANALYSIS_ROUTES.some((route) => route.method === request.method && route.url === path)) return;
    if (!policyOfRequest(config, request).face_analysis) throw new AppError('FORBIDDEN', FACE_ANALYSIS_NOT_OFFERED);
  });
}
