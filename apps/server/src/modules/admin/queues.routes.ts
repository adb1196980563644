import { dateRangeQuerySchema } from '@roots/contracts/admin';
import {
  adminSearchQuerySchema,
  adminSearchResultSchema,
  customerTimelineQuerySchema,
  customerTimelineSchema,
  failedFirstPaymentsSchema,
  pageQuerySchema,
  pastDueListSchema,
  planBreakdownSchema,
  unclaimedPaymentsSchema,
  upcomingRenewalsQuerySchema,
  upcomingRenewalsSchema,
  webhookEventsSchema,
} from '@roots/contracts/admin-queues';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { BillingContext } from '../subscriptions/context';
import { customerTimeline } from './customer-timeline';
import { planBreakdown } from './plan-breakdown';
import { OperatorQueues } from './queues';
import { QueuesRepository } from './queues.repository';
import { searchCustomers } from './search';

type QueuesRoutesOptions = {
  context: BillingContext;
  /** The console's operator guard (401 visitor, 403 customer), as every `/api/admin/*` route. */
  operator: (request: FastifyRequest) => Promise<{ email: string }>;
};

/** The operator's queues, search, customer timeline and Plans table (issue 25); reads only. */
export const queuesRoutes: FastifyPluginAsyncZod<QueuesRoutesOptions> = async (app, { context, operator }) => {
  const repository = new QueuesRepository();
  const deps = { context, repository };
  const queues = new OperatorQueues(deps);

  app.get(
    '/api/admin/queues/renewals',
    { schema: { querystring: upcomingRenewalsQuerySchema, response: { 200: upcomingRenewalsSchema } } },
    async (request) => {
      await operator(request);
      return queues.upcomingRenewals(request.query);
    },
  );

  app.get(
    '/api/admin/queues/past-due',
    { schema: { querystring: pageQuerySchema, response: { 200: pastDueListSchema } } },
    async (request) => {
      await operator(request);
      return queues.pastDue(request.query);
    },
  );

  app.get(
    '/api/admin/queues/failed-payments',
    { schema: { querystring: pageQuerySchema, response: { 200: failedFirstPaymentsSchema } } },
    async (request) => {
      await operator(request);
      return queues.failedFirstPayments(request.query);
    },
  );

  app.get(
    '/api/admin/queues/unclaimed',
    { schema: { querystring: pageQuerySchema, response: { 200: unclaimedPaymentsSchema } } },
    async (request) => {
      await operator(request);
      return queues.unclaimedPayments(request.query);
    },
  );

  app.get(
    '/api/admin/queues/webhooks',
    { schema: { querystring: pageQuerySchema, response: { 200: webhookEventsSchema } } },
    async (request) => {
      await operator(request);
      return queues.webhookEvents(request.query);
    },
  );

  app.get(
    '/api/admin/search',
    { schema: { querystring: adminSearchQuerySchema, response: { 200: adminSearchResultSchema } } },
    async (request) => {
      await operator(request);
      return searchCustomers(deps, request.query);
    },
  );

  app.get(
    '/api/admin/customers/timeline',
    { schema: { querystring: customerTimelineQuerySchema, response: { 200: customerTimelineSchema } } },
    async (request) => {
      await operator(request);
      return customerTimeline(deps, request.query.email);
    },
  );

  app.get(
    '/api/admin/plans',
    { schema: { querystring: dateRangeQuerySchema, response: { 200: planBreakdownSchema } } },
    async (request) => {
      await operator(request);
      return planBreakdown(deps, request.query);
    },
  );
};

/** The endpoints above as `METHOD url`, in order (the access-control matrix walks them with the console's). */
export const QUEUE_ENDPOINTS = [
  'GET /api/admin/queues/renewals',
  'GET /api/admin/queues/past-due',
  'GET /api/admin/queues/failed-payments',
  'GET /api/admin/queues/unclaimed',
  'GET /api/admin/queues/webhooks',
  'GET /api/admin/search',
  'GET /api/admin/customers/timeline',
  'GET /api/admin/plans',
] as const;
