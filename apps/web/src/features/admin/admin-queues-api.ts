import type { DateRangeQuery } from '@roots/contracts/admin';
import {
  adminSearchResultSchema,
  customerTimelineSchema,
  disputeQueueSchema,
  failedFirstPaymentsSchema,
  pastDueListSchema,
  planBreakdownSchema,
  unclaimedPaymentsSchema,
  upcomingRenewalsSchema,
  webhookEventsSchema,
} from '@roots/contracts/admin-queues';
import { getJson } from '../../lib/api-client';

/** One page of a queue. */
export type Page = { page: number; page_size: number };
const pageQuery = (page: Page) => `page=${page.page}&page_size=${page.page_size}`;

export const getUpcomingRenewals = (days: number, page: Page, signal?: AbortSignal) =>
  getJson(`/api/admin/queues/renewals?days=${days}&${pageQuery(page)}`, upcomingRenewalsSchema, signal);
export const getPastDue = (page: Page, signal?: AbortSignal) =>
  getJson(`/api/admin/queues/past-due?${pageQuery(page)}`, pastDueListSchema, signal);
export const getFailedFirstPayments = (page: Page, signal?: AbortSignal) =>
  getJson(`/api/admin/queues/failed-payments?${pageQuery(page)}`, failedFirstPaymentsSchema, signal);
export const getUnclaimedPayments = (page: Page, signal?: AbortSignal) =>
  getJson(`/api/admin/queues/unclaimed?${pageQuery(page)}`, unclaimedPaymentsSchema, signal);
export const getDisputes = (page: Page, signal?: AbortSignal) =>
  getJson(`/api/admin/queues/disputes?${pageQuery(page)}`, disputeQueueSchema, signal);
export const getWebhookEvents = (page: Page, signal?: AbortSignal) =>
  getJson(`/api/admin/queues/webhooks?${pageQuery(page)}`, webhookEventsSchema, signal);
export const searchCustomers = (q: string, page: Page, signal?: AbortSignal) =>
  getJson(`/api/admin/search?q=${encodeURIComponent(q)}&${pageQuery(page)}`, adminSearchResultSchema, signal);
export const getCustomerTimeline = (email: string, signal?: AbortSignal) =>
  getJson(`/api/admin/customers/timeline?email=${encodeURIComponent(email)}`, customerTimelineSchema, signal);
export const getPlanBreakdown = (range: DateRangeQuery, signal?: AbortSignal) =>
  getJson(`/api/admin/plans?from=${range.from}&to=${range.to}`, planBreakdownSchema, signal);
