import type { CustomerRecord } from '@roots/contracts/admin';
import type { emails, subscriptions } from '../../db/schema';
import type { SubscriptionChargeRow } from '../charges/charges.repository';

type SubscriptionRecord = CustomerRecord['subscriptions'][number];

/** A purchase as the console and the data download show it, with its consent record. */
export function toSubscriptionRecord(row: typeof subscriptions.$inferSelect): SubscriptionRecord {
  return {
    id: row.id,
    email: row.email,
    plan_id: row.planId,
    status: row.status,
    parent_id: row.parentId,
    card_last4: row.cardLast4,
    current_period_end: row.currentPeriodEnd?.toISOString() ?? null,
    canceled_at: row.canceledAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    consent: {
      terms_version: row.termsVersion,
      terms_text: row.termsText,
      at: row.consentAt.toISOString(),
      ip: row.consentIp,
      user_agent: row.consentUserAgent,
    },
  };
}

export function toChargeRecord(charge: SubscriptionChargeRow): CustomerRecord['charges'][number] {
  return {
    id: charge.id,
    subscription_id: charge.subscriptionId,
    kind: charge.kind,
    period: charge.period,
    status: charge.status,
    amount_minor: charge.amountMinor,
    refunded_minor: charge.refundedMinor,
    currency: charge.currency,
    execution_id: charge.executionId,
    decline_code: charge.declineCode,
    created_at: charge.createdAt.toISOString(),
  };
}

/** A refund row of the ledger (kind `refund`): the charge it refunded and how much came back. */
export function toRefundRecord(refund: SubscriptionChargeRow): CustomerRecord['refunds'][number] {
  return {
    id: refund.id,
    charge_id: refund.refundOfChargeId ?? '',
    amount_minor: refund.amountMinor,
    created_at: refund.createdAt.toISOString(),
  };
}

export function toEmailRecord(message: Pick<typeof emails.$inferSelect, 'id' | 'kind' | 'subject' | 'status' | 'createdAt'>) {
  return {
    id: message.id,
    kind: message.kind,
    subject: message.subject,
    status: message.status,
    created_at: message.createdAt.toISOString(),
  };
}

/** A report's status and estimate (group ids and shares): never any image, nothing that rebuilds a face. */
export function toReportRecord(report: {
  id: string;
  subscriptionId: string;
  status: string;
  errorCode: string | null;
  groups: Array<{ id?: string; share?: number }> | null;
  createdAt: Date;
}): CustomerRecord['reports'][number] {
  return {
    id: report.id,
    subscription_id: report.subscriptionId,
    status: report.status,
    error_code: report.errorCode,
    estimate: (report.groups ?? []).map((group) => ({ group: String(group.id ?? ''), share: Number(group.share ?? 0) })),
    created_at: report.createdAt.toISOString(),
  };
}
