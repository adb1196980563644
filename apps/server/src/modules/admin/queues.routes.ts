import { dateRangeQuerySchema } from '@roots/contracts/admin';
import {
  adminSearchQuerySchema,
  adminSearchResultSchema,
  customerTimelineQuerySchema,
  customerTimelineSchema,
  disputeQueueSchema,
  failedFirstPaymentsSchema,
  pageQuerySchema,
  pastDueListSchema,
  planBreakdownSchema,
  unclaimedPaymentsSchema,
  upcomingRenewalsQuerySchema,
  upcomingRenewalsSchema,
  webhookEventsSchema,
} from '@roots/contracts/admin-queues';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { BillingContext } from '../subscriptions/context';
import { customerTimeline } from './customer-timeline';
import { planBreakdown } from './plan-breakdown';
import { OperatorQueues } from './queues';
import { QueuesRepository } from './queues.repository';
import { searchCustomers } from './search';

type QueuesRoutesOptions = {
  context: BillingContext;
};

/** The operator's queues, search, customer timeline and Plans table (issue 25); reads only. */
export const queuesRoutes: FastifyPluginAsyncZod<QueuesRoutesOptions> = async (app, { context }) => {
  const repository = new QueuesRepository();
  const deps = { context, repository };
  const queues = new OperatorQueues(deps);

  app.get(
    '/api/admin/queues/renewals',
    { schema: { querystring: upcomingRenewalsQuerySchema, response: { 200: upcomingRenewalsSchema } } },
    async (request) => {
      return queues.upcomingRenewals(request.query);
    },
  );

  app.get(
    '/api/admin/queues/past-due',
    { schema: { querystring: pageQuerySchema, response: { 200: pastDueListSchema } } },
    async (request) => {
      return queues.pastDue(request.query);
    },
  );

  app.get(
    '/api/admin/queues/failed-payments',
    { schema: { querystring: pageQuerySchema, response: { 200: failedFirstPaymentsSchema } } },
    async (request) => {
      return queues.failedFirstPayments(request.query);
    },
  );

  app.get(
    '/api/admin/queues/unclaimed',
    { schema: { querystring: pageQuerySchema, response: { 200: unclaimedPaymentsSchema } } },
    async (request) => {
      return queues.unclaimedPayments(request.query);
    },
  );

  app.get(
    '/api/admin/queues/disputes',
    { schema: { querystring: pageQuerySchema, response: { 200: disputeQueueSchema } } },
    async (request) => {
      return queues.disputes(request.query);
    },
  );

  app.get(
    '/api/admin/queues/webhooks',
    { schema: { querystring: pageQuerySchema, response: { 200: webhookEventsSchema } } },
    async (request) => {
      return queues.webhookEvents(request.query);
    },
  );

  app.get(
    '/api/admin/search',
    { schema: { querystring: adminSearchQuerySchema, response: { 200: adminSearchResultSchema } } },
    async (request) => {
      return searchCustomers(deps, request.query);
    },
  );

  app.get(
    '/api/admin/customers/timeline',
    { schema: { querystring: customerTimelineQuerySchema, response: { 200: customerTimelineSchema } } },
    async (request) => {
      return customerTimeline(deps, request.query.email);
    },
  );

  app.get(
    '/api/admin/plans',
    { schema: { querystring: dateRangeQuerySchema, response: { 200: planBreakdownSchema } } },
    async (request) => {
      return planBreakdown(deps, request.query);
    },
  );
};
