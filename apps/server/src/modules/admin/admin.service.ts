import { randomUUID } from 'node:crypto';
import { API_MESSAGES } from '@roots/contracts';
import {
  FUNNEL_DIMENSIONS,
  FUNNEL_STEPS,
  type AdminAction,
  type AdminCancelRequest,
  type AdminDisputeAcceptRequest,
  type AdminDisputeAnswer,
  type AdminDisputeEvidenceRequest,
  type AdminRefundRequest,
  type AdminRefundResponse,
  type AdminResendRequest,
  type AuditEntry,
  type CancelChannel,
  type CustomerRecord,
  type DateRangeQuery,
  type FunnelDimension,
  type FunnelReport,
  type FunnelStep,
  type QualityReport,
  type Reconciliation,
  type RevenueReport,
} from '@roots/contracts/admin';
import { isCancelable, type SubscriptionStatus } from '@roots/contracts/subscriptions';
import { AppError } from '../../errors';
import { DAY_MS } from '../../lib/clock';
import { normalizeEmail } from '../../lib/mask';
import type { AccountService } from '../account/account.service';
import type { CancellationService } from '../cancellation/cancellation.service';
import { toCustomerDispute, type DisputeRecords, type DisputeRow, type EvidenceEntry } from '../disputes/dispute-records';
import { REPORT_FEEDBACK_EVENT } from '../reports/reports.repository';
import type { BillingContext } from '../subscriptions/context';
import type { SubscriptionsService } from '../subscriptions/subscriptions.service';
import { receiptEmail, renewalReceiptEmail } from '../emails/email-templates';
import { agreedTermsOf } from '../terms/plan-terms';
import { firstChargeKind } from '../lifecycle/subscription-lifecycle';
import { cancelLinkEmail } from './admin-emails';
import type { AdminRepository, AuditRow, FunnelCountRow } from './admin.repository';
import { daysOf, instantsOf, previousDay, ROLLUP_SETTLE_MS } from './date-range';
import { revenueReport } from './revenue-report';
import { toChargeRecord, toEmailRecord, toRefundRecord, toReportRecord, toSubscriptionRecord } from './customer-records';

/** Charges one reconciliation run checks against the gateway, one call each. */
export const RECONCILE_MAX_CHARGES = 200;
/** Feedback texts the quality view lists. */
const FEEDBACK_TEXTS_LIMIT = 100;
/** Audit entries the console lists. */
const AUDIT_PAGE = 200;

export type AdminDependencies = {
  context: BillingContext;
  repository: AdminRepository;
  subscriptions: SubscriptionsService;
  cancellation: CancellationService;
  account: AccountService;
  disputes: DisputeRecords;
};

const STEP_OF_EVENT = new Map<string, FunnelStep>(FUNNEL_STEPS.map((item) => [item.event, item.step]));
const STEP_EVENTS = FUNNEL_STEPS.map((item) => item.event);

function emptyCounts(): Record<FunnelStep, number> {
  return Object.fromEntries(FUNNEL_STEPS.map((item) => [item.step, 0])) as Record<FunnelStep, number>;
}

const ratio = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : 0);

export function toAuditEntry(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    at: row.createdAt.toISOString(),
    operator_email: row.operatorEmail,
    action: row.action as AdminAction,
    customer_email: row.customerEmail,
    subscription_id: row.subscriptionId,
    detail: row.detail,
  };
}

/**
 * The operator console's rules (issue 13): who is an operator, the audit trail every action
 * writes, customer care through the subscription and cancellation services, and the dashboards.
 */
export class AdminService {
  constructor(private readonly deps: AdminDependencies) {}

  private get db() {
    return this.deps.context.db;
  }

  private now(): Date {
    return this.deps.context.clock.now();
  }

  async audit(
    operator: { email: string },
    action: AdminAction,
    target: { customerEmail: string | null; subscriptionId: string | null },
    detail: Record<string, string | number | boolean | null> = {},
  ): Promise<AuditEntry> {
    const row = await this.deps.repository.appendAudit(this.db, {
      operatorEmail: operator.email,
      action,
      customerEmail: target.customerEmail,
      subscriptionId: target.subscriptionId,
      detail,
      now: this.now(),
    });
    return toAuditEntry(row);
  }

  // ----- customer care --------------------------------------------------------------------------

  /** A customer by email or subscription id: everything the console shows, never any image. */
  async lookup(operator: { email: string }, query: string): Promise<CustomerRecord> {
    const { repository } = this.deps;
    const trimmed = query.trim();
    const isId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(trimmed);
    const rows = await repository.subscriptionsMatching(this.db, isId ? { id: trimmed.toLowerCase() } : { email: normalizeEmail(trimmed) });
    const email = rows[0]?.email ?? (isId ? null : normalizeEmail(trimmed));
    const ids = rows.map((row) => row.id);
    const [charges, refunds, emails, reports, audit] = await Promise.all([
      repository.chargesOf(this.db, ids),
      repository.refundsOf(this.db, ids),
      email ? repository.emailsTo(this.db, email) : Promise.resolve([]),
      email ? repository.reportsOf(this.db, email, ids) : Promise.resolve([]),
      email ? repository.audit(this.db, { limit: AUDIT_PAGE, customerEmails: [email] }) : Promise.resolve([]),
    ]);
    const disputed = await this.deps.disputes.ofPurchases(
      this.db,
      ids,
      charges.flatMap((charge) => (charge.executionId ? [charge.executionId] : [])),
    );
    await this.audit(
      operator,
      'customer.lookup',
      { customerEmail: email, subscriptionId: isId ? trimmed.toLowerCase() : null },
      {
        found: rows.length,
      },
    );
    return {
      query: trimmed,
      emails_found: email && rows.length > 0 ? [email] : [],
      subscriptions: rows.map(toSubscriptionRecord),
      charges: charges.map(toChargeRecord),
      refunds: refunds.map(toRefundRecord),
      disputes: disputed.map((row) => toCustomerDispute(row, this.now())),
      emails: emails.map(toEmailRecord),
      reports: reports.map(toReportRecord),
      audit: audit.map(toAuditEntry),
    };
  }

  private async subscription(id: string) {
    const row = await this.deps.context.repository.find(this.db, id);
    if (!row) throw new AppError('NOT_FOUND', API_MESSAGES.noSubscriptionWithId);
    return row;
  }

  /** Full or partial refund of one charge through the gateway's merchant API (idempotent per charge). */
  async refund(operator: { email: string }, input: AdminRefundRequest): Promise<AdminRefundResponse> {
    const charge = await this.deps.repository.chargeById(this.db, input.charge_id);
    if (!charge?.subscriptionId) throw new AppError('NOT_FOUND', API_MESSAGES.noPaidChargeWithId);
    const row = await this.subscription(charge.subscriptionId);
    const done = await this.deps.cancellation.refundCharge(charge, input.amount_minor, input.reason);
    // One audit entry per refund however often it is asked for (a replay answers the first refund, issue 36).
    await this.deps.repository.appendAuditOnce(
      this.db,
      {
        operatorEmail: operator.email,
        action: 'customer.refund',
        customerEmail: row.email,
        subscriptionId: row.id,
        detail: { charge_id: charge.id, amount_minor: done.refundedMinor, gateway_refund_id: done.refundId, reason: input.reason },
        now: this.now(),
      },
      `refund:${done.refundId}`,
    );
    return { refunded_minor: done.refundedMinor, gateway_refund_id: done.refundId };
  }

  /**
   * Cancels through the cancellation service (the customer's own path, with its email): at period
   * end, or `now`, which ends the access at once and says so in the email.
   */
  async cancel(operator: { email: string }, input: AdminCancelRequest): Promise<void> {
    const row = await this.subscription(input.subscription_id);
    // A replay (issue 36): the cancel it repeats already holds, so the same answer and no second audit.
    // Canceled at period end asked again at period end, or a canceled purchase that has ended asked to end now.
    const replay =
      input.when === 'now'
        ? row.status === 'expired' && row.canceledAt !== null
        : row.status === 'canceled' || (row.status === 'expired' && row.canceledAt !== null);
    if (replay) return;
    // A one-time pack is ended by a refund, not a cancel; an ended subscription is left alone (issue 23).
    await this.deps.cancellation.cancel(row, input.when === 'now' ? 'now' : 'period_end');
    if (isCancelable(row.status as SubscriptionStatus))
      await this.deps.repository.recordCancellation(this.db, {
        subscriptionId: row.id,
        channel: 'operator' satisfies CancelChannel,
        reason: input.reason,
        now: this.now(),
      });
    await this.audit(
      operator,
      input.when === 'now' ? 'customer.cancel_now' : 'customer.cancel_at_period_end',
      { customerEmail: row.email, subscriptionId: row.id },
      { reason: input.reason, status_before: row.status },
    );
  }

  /**
   * Answers a card dispute with the operator's text and the customer's dated history (consent,
   * receipts, sign-ins, reports, payments), before its due date (ADR 182). Audited once: a replay
   * answers the dispute as it is and audits nothing.
   */
  async submitDisputeEvidence(operator: { email: string }, input: AdminDisputeEvidenceRequest): Promise<AdminDisputeAnswer> {
    const row = await this.deps.disputes.find(input.dispute_id);
    const customer = await this.disputedCustomer(row);
    const timeline = customer ? await this.evidenceTimeline(customer) : [];
    const done = await this.deps.disputes.submitEvidence(row.disputeId, input.text, timeline);
    if (!done.replay)
      await this.audit(
        operator,
        'dispute.evidence_submitted',
        { customerEmail: customer, subscriptionId: done.row.subscriptionId },
        { dispute_id: row.disputeId, status_after: done.row.status, history_entries: timeline.length, text_length: input.text.length },
      );
    return { dispute: toCustomerDispute(done.row, this.now()), evidence_entries: done.replay ? 0 : timeline.length };
  }

  /** Accepts a card dispute: the money stays with the cardholder and the purchase ends (ADR 182). Audited once. */
  async acceptDispute(operator: { email: string }, input: AdminDisputeAcceptRequest): Promise<AdminDisputeAnswer> {
    const row = await this.deps.disputes.find(input.dispute_id);
    const customer = await this.disputedCustomer(row);
    const done = await this.deps.disputes.accept(row.disputeId);
    if (!done.replay)
      await this.audit(
        operator,
        'dispute.accepted',
        { customerEmail: customer, subscriptionId: done.row.subscriptionId },
        { dispute_id: row.disputeId, amount_minor: row.amountMinor },
      );
    return { dispute: toCustomerDispute(done.row, this.now()), evidence_entries: 0 };
  }

  /** The email of the purchase a dispute is about (found by its charge's execution when recorded before it). */
  private async disputedCustomer(row: DisputeRow): Promise<string | null> {
    const id = row.subscriptionId ?? (await this.deps.repository.subscriptionOfExecution(this.db, row.executionId));
    return id ? ((await this.deps.context.repository.find(this.db, id))?.email ?? null) : null;
  }

  /** The customer's dated history sent as evidence, oldest first: consent, payments, receipts, sign-ins, reports. */
  private async evidenceTimeline(email: string): Promise<EvidenceEntry[]> {
    const { repository } = this.deps;
    const bought = await repository.subscriptionsMatching(this.db, { email });
    const ids = bought.map((row) => row.id);
    const [paid, mail, signIns, made] = await Promise.all([
      repository.chargesOf(this.db, ids),
      repository.emailsTo(this.db, email),
      repository.signInsOf(this.db, email),
      repository.reportsOf(this.db, email, ids),
    ]);
    const entries: EvidenceEntry[] = [
      ...bought.map((row) => ({
        at: row.consentAt.toISOString(),
        kind: 'consent',
        detail: `accepted terms ${row.termsVersion} for ${row.planId} from ${row.consentIp} (${row.consentUserAgent})`.slice(0, 500),
      })),
      ...paid
        .filter((charge) => charge.status === 'succeeded' && charge.kind !== 'refund')
        .map((charge) => ({
          at: charge.createdAt.toISOString(),
          kind: 'payment',
          detail: `${charge.kind} ${charge.amountMinor} ${charge.currency}`,
        })),
      ...mail
        .filter((message) => message.kind === 'receipt' || message.kind === 'renewal_receipt')
        .map((message) => ({
          at: message.createdAt.toISOString(),
          kind: 'receipt',
          detail: `${message.subject} (${message.status})`.slice(0, 500),
        })),
      ...signIns.map((at) => ({ at: at.toISOString(), kind: 'sign_in', detail: 'signed in to the account' })),
      ...made.map((report) => ({ at: report.createdAt.toISOString(), kind: 'report', detail: `report ${report.status}` })),
    ];
    return entries.sort((a, b) => a.at.localeCompare(b.at));
  }

  /** Sends the receipt of the newest payment again, as things stand now, or a fresh one-click cancel link. */
  async resend(operator: { email: string }, input: AdminResendRequest): Promise<void> {
    const { context } = this.deps;
    const row = await this.subscription(input.subscription_id);
    const key = `admin-resend:${input.what}:${row.id}:${randomUUID()}`;
    if (input.what === 'receipt') {
      // The receipt of the newest payment, written as things stand now (issue 36): a canceled or
      // ended purchase has no next charge and no cancel link, whatever the first receipt said.
      const paid = (await context.charges.chargesOf(row.id)).find((charge) => charge.status === 'succeeded' && charge.kind !== 'refund');
      if (!paid || !(await this.deps.repository.latestReceiptOf(this.db, row.id)))
        throw new AppError('NOT_FOUND', API_MESSAGES.noReceiptSent);
      const terms = agreedTermsOf(context.config.catalog, row);
      const renews = terms?.recurring === true && isCancelable(row.status as SubscriptionStatus);
      const receipt = {
        chargeId: paid.id,
        chargedAt: paid.createdAt,
        acceptedAt: row.consentAt,
        productName: context.config.PRODUCT_NAME,
        planName: terms?.name ?? row.planId,
        amountMinor: paid.amountMinor,
        termsText: row.termsText,
        nextChargeAt: renews ? (row.status === 'past_due' ? row.dueAt : row.currentPeriodEnd) : null,
        nextChargeMinor: renews ? (terms?.renewalAmountMinor ?? null) : null,
        renewalPeriod: renews ? (terms?.renewalPeriod ?? null) : null,
        cardLast4: row.cardLast4,
        cancelUrl: renews ? this.deps.subscriptions.cancelUrl(row.id) : null,
      };
      await context.emails.enqueue(
        this.db,
        key,
        row.email,
        paid.kind === 'renewal'
          ? renewalReceiptEmail({
              ...receipt,
              charge: {
                kind: 'renewal',
                period: paid.period,
                // The latest paid period is normally the current one; its bounds are on the row.
                periodStart: (paid.period === row.currentPeriod ? row.currentPeriodStart : null) ?? paid.createdAt,
                periodEnd: (paid.period === row.currentPeriod ? row.currentPeriodEnd : null) ?? paid.createdAt,
              },
            })
          : receiptEmail({ ...receipt, charge: terms ? firstChargeKind(terms, row.parentId ?? null) : { kind: 'one_time' } }),
      );
    } else {
      await context.emails.enqueue(
        this.db,
        key,
        row.email,
        cancelLinkEmail({ productName: context.config.PRODUCT_NAME, cancelUrl: this.deps.subscriptions.cancelUrl(row.id) }),
      );
    }
    context.emails.kick();
    await this.audit(operator, input.what === 'receipt' ? 'customer.resend_receipt' : 'customer.resend_cancel_link', {
      customerEmail: row.email,
      subscriptionId: row.id,
    });
  }

  /**
   * Deletes the customer's data the way 'Delete my data' does (account, sessions, profile, reports
   * and feedback); purchases, charges and refunds stay as the accounting record, unlinked.
   */
  async deleteCustomer(operator: { email: string }, rawEmail: string): Promise<void> {
    const email = normalizeEmail(rawEmail);
    const user = await this.deps.repository.userByEmail(this.db, email);
    await this.deps.account.deleteMyData({
      id: user?.id ?? randomUUID(),
      email,
      emailVerified: true,
      name: user?.name ?? '',
      sessionExpiresAt: this.now(),
    });
    await this.audit(operator, 'customer.delete_data', { customerEmail: email, subscriptionId: null }, { had_account: user !== undefined });
  }

  // ----- dashboards -----------------------------------------------------------------------------

  async funnel(range: DateRangeQuery): Promise<FunnelReport> {
    const { repository } = this.deps;
    const instants = instantsOf(range);
    // Finished days come from the daily rollup (rolled here when needed); the rest from the raw events.
    const today = this.now().toISOString().slice(0, 10);
    const yesterday = previousDay(today);
    const rolledThrough = await repository.rollUpFunnel(this.db, yesterday, STEP_EVENTS, this.now());
    const rolledTo = rolledThrough && rolledThrough < range.to ? rolledThrough : range.to;
    const rolled = rolledThrough && range.from <= rolledTo ? await repository.funnelRolledCounts(this.db, range.from, rolledTo) : [];
    const todayStart = new Date(`${today}T00:00:00Z`);
    const liveFrom =
      rolledThrough && rolledThrough >= range.from ? new Date(Date.parse(`${rolledThrough}T00:00:00Z`) + DAY_MS) : instants.from;
    let live: FunnelCountRow[] = [];
    if (liveFrom.getTime() === todayStart.getTime() && todayStart < instants.to) {
      // Today: its counts up to the watermark, kept as the day goes (ADR 198), and the events since.
      const settled = new Date(this.now().getTime() - ROLLUP_SETTLE_MS);
      const partial = await repository.rollUpFunnelToday(this.db, today, settled, STEP_EVENTS, this.now());
      const since = await repository.funnelCountsSince(this.db, todayStart, { from: partial.watermark, to: instants.to }, STEP_EVENTS);
      live = [...partial.rows, ...since];
    } else if (liveFrom < instants.to) live = await repository.funnelCounts(this.db, { from: liveFrom, to: instants.to }, STEP_EVENTS);
    const rows = [...rolled, ...live];
    const days = new Map(daysOf(range).map((day) => [day, emptyCounts()]));
    const totals = emptyCounts();
    const bySource = new Map<string, { dimension: FunnelDimension; value: string; counts: Record<FunnelStep, number> }>();
    for (const row of rows) {
      const step = STEP_OF_EVENT.get(row.name);
      if (!step) continue;
      if (row.dimension === 'day') {
        const counts = days.get(row.value);
        if (!counts) continue;
        counts[step] += row.count;
        totals[step] += row.count;
        continue;
      }
      const key = `${row.dimension}\u0000${row.value}`;
      const entry = bySource.get(key) ?? { dimension: row.dimension, value: row.value, counts: emptyCounts() };
      entry.counts[step] += row.count;
      bySource.set(key, entry);
    }
    const order = (dimension: FunnelDimension) => FUNNEL_DIMENSIONS.indexOf(dimension);
    const sources = [...bySource.values()].sort(
      (a, b) => order(a.dimension) - order(b.dimension) || b.counts.landing - a.counts.landing || a.value.localeCompare(b.value),
    );
    const landing = totals.landing;
    return {
      steps: FUNNEL_STEPS.map((item) => item.step),
      totals: FUNNEL_STEPS.map((item, index) => {
        const previous = index === 0 ? totals[item.step] : totals[FUNNEL_STEPS[index - 1]!.step];
        return {
          step: item.step,
          count: totals[item.step],
          conversion: ratio(totals[item.step], landing),
          drop_off: index === 0 ? 0 : ratio(Math.max(0, previous - totals[item.step]), previous),
        };
      }),
      days: [...days].map(([day, counts]) => ({ day, counts })),
      sources,
    };
  }

  /** The revenue view; every figure as docs/metrics.md defines it. */
  revenue(range: DateRangeQuery): Promise<RevenueReport> {
    return revenueReport({ db: this.db, catalog: this.deps.context.config.catalog, now: this.now() }, range);
  }

  /** Our succeeded charges of the range, each compared with the gateway's execution. */
  async reconcile(range: DateRangeQuery): Promise<Reconciliation> {
    const { repository, context } = this.deps;
    const rows = await repository.chargesToReconcile(this.db, instantsOf(range), RECONCILE_MAX_CHARGES + 1);
    const checked = rows.slice(0, RECONCILE_MAX_CHARGES);
    const mismatches: Reconciliation['mismatches'] = [];
    for (const charge of checked) {
      const executionId = charge.executionId!;
      const base = { charge_id: charge.id, execution_id: executionId };
      let execution: Awaited<ReturnType<BillingContext['gateway']['getExecution']>>;
      try {
        execution = await context.gateway.getExecution(executionId);
      } catch {
        mismatches.push({ ...base, field: 'missing', ours: 'succeeded', gateway: 'not found' });
        continue;
      }
      if (execution.status !== 'authorizeSuccessful')
        mismatches.push({ ...base, field: 'status', ours: 'succeeded', gateway: execution.status });
      if (execution.amount.value !== charge.amountMinor)
        mismatches.push({ ...base, field: 'amount', ours: String(charge.amountMinor), gateway: String(execution.amount.value) });
      if (execution.amountRefunded !== charge.refundedMinor)
        mismatches.push({ ...base, field: 'refunded', ours: String(charge.refundedMinor), gateway: String(execution.amountRefunded) });
    }
    return { checked: checked.length, truncated: rows.length > RECONCILE_MAX_CHARGES, mismatches };
  }

  async quality(range: DateRangeQuery): Promise<QualityReport> {
    const { repository } = this.deps;
    const instants = instantsOf(range);
    const [rows, feedback] = await Promise.all([
      repository.reportsByStatus(this.db, instants),
      repository.feedback(this.db, instants, REPORT_FEEDBACK_EVENT, FEEDBACK_TEXTS_LIMIT),
    ]);
    const tally = (key: (row: (typeof rows)[number]) => string | null) => {
      const counts = new Map<string, number>();
      for (const row of rows) {
        const value = key(row);
        if (value !== null) counts.set(value, (counts.get(value) ?? 0) + row.count);
      }
      return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    };
    const texts: QualityReport['feedback']['texts'] = [];
    for (const row of feedback.rows) {
      try {
        const parsed = JSON.parse(row.payload ?? '{}') as { looks_correct?: unknown; text?: unknown };
        if (typeof parsed.text === 'string' && parsed.text.trim() !== '')
          texts.push({ at: new Date(row.created_at).toISOString(), looks_correct: parsed.looks_correct === true, text: parsed.text });
      } catch {
        // A payload that is not JSON is not feedback.
      }
    }
    return {
      by_status: tally((row) => row.status).map(([status, count]) => ({ status, count })),
      refusals: tally((row) => (row.status === 'failed' ? (row.error_code ?? 'UNKNOWN') : null)).map(([error_code, count]) => ({
        error_code,
        count,
      })),
      feedback: {
        answered: feedback.counts.answered,
        looks_correct: feedback.counts.looks_correct,
        share_correct: ratio(feedback.counts.looks_correct, feedback.counts.answered),
        texts,
      },
      model_versions: tally((row) => row.model_version).map(([version, count]) => ({ version, count })),
    };
  }
}
