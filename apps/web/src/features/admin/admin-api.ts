import {
  adminActionDoneSchema,
  adminDisputeAnswerSchema,
  adminRefundResponseSchema,
  auditListSchema,
  operatorListSchema,
  operatorSessionListSchema,
  totpEnrollmentSchema,
  type AuditQuery,
  type OperatorRole,
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
/** A page of the audit trail (newest first) with the filters set. */
export const getAudit = (query: Partial<AuditQuery>, signal?: AbortSignal) => {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(name, String(value));
  return getJson(`/api/admin/audit?${params.toString()}`, auditListSchema, signal);
};
export const enrollAuthenticator = () => postParsed('/api/admin/second-factor/enroll', {}, totpEnrollmentSchema);
export const verifyAuthenticatorCode = (code: string) => postParsed('/api/admin/second-factor/verify', { code }, adminActionDoneSchema);
export const getSessions = (all: boolean, signal?: AbortSignal) =>
  getJson(`/api/admin/sessions${all ? '?all=true' : ''}`, operatorSessionListSchema, signal);
export const revokeSession = (id: string) => postParsed('/api/admin/sessions/revoke', { id }, adminActionDoneSchema);
export const getOperators = (signal?: AbortSignal) => getJson('/api/admin/operators', operatorListSchema, signal);
export const setOperatorRole = (email: string, role: OperatorRole) =>
  postParsed('/api/admin/operators/role', { email, role }, adminActionDoneSchema);
export const removeOperator = (email: string) => postParsed('/api/admin/operators/remove', { email }, adminActionDoneSchema);
/** Records a CSV export in the audit trail; the download starts only once it is recorded. */
export const recordExport = (name: string, rows: number) => postParsed('/api/admin/exports', { name, rows }, adminActionDoneSchema);
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
/** Answers a dispute with the operator's text; the server attaches the customer's history (ADR 182). */
export const submitDisputeEvidence = (disputeId: string, text: string) =>
  postParsed('/api/admin/disputes/evidence', { dispute_id: disputeId, text }, adminDisputeAnswerSchema);
/** Gives a disputed payment up: the dispute ends accepted and the purchase with it (ADR 182). */
export const acceptDispute = (disputeId: string) =>
  postParsed('/api/admin/disputes/accept', { dispute_id: disputeId }, adminDisputeAnswerSchema);
export const deleteCustomerData = (email: string) => postParsed('/api/admin/customers/delete', { email }, adminActionDoneSchema);

/** Minor units as dollars: 2499 → "$24.99". */
export const formatMinor = (minor: number) => `$${(minor / 100).toFixed(2)}`;
/** A 0..1 share as a percent with one decimal: 0.4567 → "45.7%". */
export const formatShare = (share: number) => `${(share * 100).toFixed(1)}%`;
