import {
  adminActionDoneSchema,
  adminCancelRequestSchema,
  adminDisputeAcceptRequestSchema,
  adminDisputeAnswerSchema,
  adminDisputeEvidenceRequestSchema,
  adminDeleteCustomerRequestSchema,
  adminRefundRequestSchema,
  adminRefundResponseSchema,
  adminResendRequestSchema,
  auditListSchema,
  auditQuerySchema,
  exportRequestSchema,
  operatorListSchema,
  operatorRemoveRequestSchema,
  operatorRoleRequestSchema,
  operatorSessionListSchema,
  operatorSessionsQuerySchema,
  revokeSessionRequestSchema,
  totpEnrollmentSchema,
  totpVerifyRequestSchema,
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
import type { SignInLimits } from '../../lib/sign-in-limits';
import type { SessionReader } from '../auth/session';
import type { AdminService } from './admin.service';
import type { DataExportService } from './data-export';
import { FACE_ANALYSIS_ROUTES, policyOfRequest } from './geo-policy';
import type { OperatorAccounts } from './operator-accounts';
import { guardOperatorEndpoints, operatorOf, type EndpointAccess } from './operator-guard';
import { queuesRoutes } from './queues.routes';
import type { BillingContext } from '../subscriptions/context';

type AdminRoutesOptions = {
  admin: AdminService;
  accounts: OperatorAccounts;
  sessions: SessionReader;
  limits: SignInLimits;
  context: BillingContext;
};

/**
 * Every operator endpoint as `METHOD url` with what it asks of the caller: the one table the gate
 * reads (ADR 150). The access-control tests walk it for every role.
 */
export const ADMIN_ENDPOINT_ACCESS = {
  'GET /api/admin/me': 'second-factor',
  'POST /api/admin/second-factor/enroll': 'second-factor',
  'POST /api/admin/second-factor/verify': 'second-factor',
  'GET /api/admin/sessions': 'operator',
  'POST /api/admin/sessions/revoke': 'operator',
  'GET /api/admin/operators': 'operators.manage',
  'POST /api/admin/operators/role': 'operators.manage',
  'POST /api/admin/operators/remove': 'operators.manage',
  'POST /api/admin/exports': 'data.export',
  'GET /api/admin/audit': 'audit.read',
  'GET /api/admin/funnel': 'dashboards.read',
  'GET /api/admin/revenue': 'dashboards.read',
  'GET /api/admin/revenue/reconciliation': 'dashboards.read',
  'GET /api/admin/quality': 'dashboards.read',
  'GET /api/admin/customers': 'customers.read',
  'POST /api/admin/customers/refund': 'customers.care',
  'POST /api/admin/customers/cancel': 'customers.care',
  'POST /api/admin/customers/resend': 'customers.care',
  'POST /api/admin/customers/delete': 'customers.delete',
  // Answering a card dispute moves money like a refund does (ADR 182).
  'POST /api/admin/disputes/evidence': 'customers.care',
  'POST /api/admin/disputes/accept': 'customers.care',
  // The queues, search and timeline show customers; the Plans table is a dashboard (queues.routes.ts).
  'GET /api/admin/queues/renewals': 'customers.read',
  'GET /api/admin/queues/past-due': 'customers.read',
  'GET /api/admin/queues/failed-payments': 'customers.read',
  'GET /api/admin/queues/unclaimed': 'customers.read',
  'GET /api/admin/queues/disputes': 'customers.read',
  'GET /api/admin/queues/webhooks': 'customers.read',
  'GET /api/admin/search': 'customers.read',
  'GET /api/admin/customers/timeline': 'customers.read',
  'GET /api/admin/plans': 'dashboards.read',
} as const satisfies Record<string, EndpointAccess>;

/** Every operator endpoint as `METHOD url`. */
export const ADMIN_ENDPOINTS = Object.keys(ADMIN_ENDPOINT_ACCESS) as Array<keyof typeof ADMIN_ENDPOINT_ACCESS>;

/** `/api/admin/*`: every route is gated by {@link guardOperatorEndpoints} before anything else. */
export const adminRoutes: FastifyPluginAsyncZod<AdminRoutesOptions> = async (app, { admin, accounts, sessions, limits, context }) => {
  guardOperatorEndpoints(app, { sessions, accounts, access: ADMIN_ENDPOINT_ACCESS });
  // Registered inside this plugin, so the gate above runs first for them too.
  await app.register(queuesRoutes, { context });
  const ok = { ok: true as const };

  app.get('/api/admin/me', { schema: { response: { 200: operatorMeSchema } } }, async (request) => accounts.me(operatorOf(request)));

  app.post('/api/admin/second-factor/enroll', { schema: { response: { 200: totpEnrollmentSchema } } }, async (request) =>
    accounts.enroll(operatorOf(request)),
  );

  app.post(
    '/api/admin/second-factor/verify',
    { schema: { body: totpVerifyRequestSchema, response: { 200: adminActionDoneSchema } } },
    async (request) => {
      // Per client address here; per operator, whatever the addresses, in verify (ADR 168).
      await limits.guess(request.ip);
      await accounts.verify(operatorOf(request), request.body.code, { ip: request.ip });
      return ok;
    },
  );

  app.get(
    '/api/admin/sessions',
    { schema: { querystring: operatorSessionsQuerySchema, response: { 200: operatorSessionListSchema } } },
    async (request) => ({ sessions: await accounts.sessions(operatorOf(request), request.query.all === 'true') }),
  );

  app.post(
    '/api/admin/sessions/revoke',
    { schema: { body: revokeSessionRequestSchema, response: { 200: adminActionDoneSchema } } },
    async (request) => {
      await accounts.revokeSession(operatorOf(request), request.body.id);
      return ok;
    },
  );

  app.get('/api/admin/operators', { schema: { response: { 200: operatorListSchema } } }, async () => ({
    operators: await accounts.list(),
  }));

  app.post(
    '/api/admin/operators/role',
    { schema: { body: operatorRoleRequestSchema, response: { 200: adminActionDoneSchema } } },
    async (request) => {
      if (request.body.role !== 'owner') await accounts.assertNotLastOwner(request.body.email);
      if ((await accounts.changeRole(operatorOf(request), request.body.email, request.body.role)) === undefined)
        throw new AppError('NOT_FOUND', 'No operator with this email');
      return ok;
    },
  );

  app.post(
    '/api/admin/operators/remove',
    { schema: { body: operatorRemoveRequestSchema, response: { 200: adminActionDoneSchema } } },
    async (request) => {
      await accounts.assertNotLastOwner(request.body.email);
      if (!(await accounts.remove(operatorOf(request), request.body.email))) throw new AppError('NOT_FOUND', 'No operator with this email');
      return ok;
    },
  );

  app.post('/api/admin/exports', { schema: { body: exportRequestSchema, response: { 200: adminActionDoneSchema } } }, async (request) => {
    await accounts.recordExport(operatorOf(request), request.body.name, request.body.rows);
    return ok;
  });

  app.get('/api/admin/audit', { schema: { querystring: auditQuerySchema, response: { 200: auditListSchema } } }, async (request) =>
    accounts.auditPage(request.query),
  );

  app.get('/api/admin/funnel', { schema: { querystring: dateRangeQuerySchema, response: { 200: funnelReportSchema } } }, async (request) =>
    admin.funnel(request.query),
  );

  app.get(
    '/api/admin/revenue',
    { schema: { querystring: dateRangeQuerySchema, response: { 200: revenueReportSchema } } },
    async (request) => admin.revenue(request.query),
  );

  app.get(
    '/api/admin/revenue/reconciliation',
    { schema: { querystring: dateRangeQuerySchema, response: { 200: reconciliationSchema } } },
    async (request) => admin.reconcile(request.query),
  );

  app.get(
    '/api/admin/quality',
    { schema: { querystring: dateRangeQuerySchema, response: { 200: qualityReportSchema } } },
    async (request) => admin.quality(request.query),
  );

  app.get(
    '/api/admin/customers',
    { schema: { querystring: customerLookupQuerySchema, response: { 200: customerRecordSchema } } },
    async (request) => admin.lookup(operatorOf(request), request.query.q),
  );

  app.post(
    '/api/admin/customers/refund',
    { schema: { body: adminRefundRequestSchema, response: { 200: adminRefundResponseSchema } } },
    async (request) => admin.refund(operatorOf(request), request.body),
  );

  app.post(
    '/api/admin/customers/cancel',
    { schema: { body: adminCancelRequestSchema, response: { 200: adminActionDoneSchema } } },
    async (request) => {
      await admin.cancel(operatorOf(request), request.body);
      return ok;
    },
  );

  app.post(
    '/api/admin/disputes/evidence',
    { schema: { body: adminDisputeEvidenceRequestSchema, response: { 200: adminDisputeAnswerSchema } } },
    async (request) => admin.submitDisputeEvidence(operatorOf(request), request.body),
  );

  app.post(
    '/api/admin/disputes/accept',
    { schema: { body: adminDisputeAcceptRequestSchema, response: { 200: adminDisputeAnswerSchema } } },
    async (request) => admin.acceptDispute(operatorOf(request), request.body),
  );

  app.post(
    '/api/admin/customers/resend',
    { schema: { body: adminResendRequestSchema, response: { 200: adminActionDoneSchema } } },
    async (request) => {
      await admin.resend(operatorOf(request), request.body);
      return ok;
    },
  );

  app.post(
    '/api/admin/customers/delete',
    { schema: { body: adminDeleteCustomerRequestSchema, response: { 200: adminActionDoneSchema } } },
    async (request) => {
      await admin.deleteCustomer(operatorOf(request), request.body.email);
      return ok;
    },
  );
};

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
