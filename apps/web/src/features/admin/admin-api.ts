import {
  adminActionDoneSchema,
  adminRefundResponseSchema,
  auditListSchema,
  customerRecordSchema,
  funnelReportSchema,
  operatorMeSchema,
  qualityReportSchema,
  reconciliationSchema,
  revenueReportSchema,
  type AdminCancelRequest,
  type AdminRefundRequest,
  type AdminResendRequest,
  type DateRangeQuery,
} from '@roots/contracts/admin';
import { getJson, postParsed } from '../../lib/api-client';

const rangeQuery = (range: DateRangeQuery) => `from=${range.from}&to=${range.to}`;

export const getOperator = (signal?: AbortSignal) => getJson('/api/admin/me', operatorMeSchema, signal);
export const getAudit = (signal?: AbortSignal) => getJson('/api/admin/audit', auditListSchema, signal);
export const getFunnel = (range: DateRangeQuery, signal?: AbortSignal) =>
  getJson(`/api/admin/funnel?${rangeQuery(range)}`, funnelReportSchema, signal);
export const getRevenue = (range: DateRangeQuery, signal?: AbortSignal) =>
  getJson(`/api/admin/revenue?${rangeQuery(range)}`, revenueReportSchema, signal);
export const getReconciliation = (range: DateRangeQuery, signal?: AbortSignal) =>
  getJson(`/api/admin/revenue/reconciliation?${rangeQuery(range)}`, reconciliationSchema, signal);
export const getQuality = (range: DateRangeQuery, signal?: AbortSignal) =>
  getJson(`/api/admin/quality?${rangeQuery(range)}`, qualityReportSchema, signal);
export const lookUpCustomer = (query: string, signal?: AbortSignal) =>
  getJson(`/api/admin/customers?q=${encodeURIComponent(query)}`, customerRecordSchema, signal);
export const refundCharge = (body: AdminRefundRequest) => postParsed('/api/admin/customers/refund', body, adminRefundResponseSchema);
export const cancelSubscription = (body: AdminCancelRequest) => postParsed('/api/admin/customers/cancel', body, adminActionDoneSchema);
export const resendEmail = (body: AdminResendRequest) => postParsed('/api/admin/customers/resend', body, adminActionDoneSchema);
export const deleteCustomerData = (email: string) => postParsed('/api/admin/customers/delete', { email }, adminActionDoneSchema);

/** Minor units as dollars: 2499 → "$24.99". */
export const formatMinor = (minor: number) => `$${(minor / 100).toFixed(2)}`;
/** A 0..1 share as a percent with one decimal: 0.4567 → "45.7%". */
export const formatShare = (share: number) => `${(share * 100).toFixed(1)}%`;
