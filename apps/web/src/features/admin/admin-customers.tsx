import type { AuditEntry, CustomerDispute, CustomerRecord } from '@roots/contracts/admin';
import type { AdminSearchResult } from '@roots/contracts/admin-queues';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../lib/api-client';
import { useResource } from '../../lib/use-resource';
import {
  acceptDispute,
  cancelSubscription,
  deleteCustomerData,
  formatMinor,
  lookUpCustomer,
  refundCharge,
  resendEmail,
  submitDisputeEvidence,
} from './admin-api';
import { browserTimeZone, formatLocalTime, planNameIn, usePlanCatalog } from './admin-format';
import { getCustomerTimeline, searchCustomers } from './admin-queues-api';
import { ConfirmDialog } from './confirm-dialog';
import { DataTable } from './data-table';
import { useCan } from './operator-context';

const SEARCH_PAGE_SIZE = 25;

/** The audit trail: who did what, when, on which customer. */
export function AuditTable({ entries, caption = 'Audit log' }: { entries: AuditEntry[]; caption?: string }) {
  return (
    <DataTable
      caption={caption}
      testId="audit-log"
      csvName="audit-log.csv"
      columns={['when', 'operator', 'action', 'customer', 'subscription', 'detail']}
      rows={entries.map((entry) => [
        formatLocalTime(entry.at),
        entry.operator_email,
        entry.action,
        entry.customer_email,
        entry.subscription_id,
        Object.entries(entry.detail)
          .map(([key, value]) => `${key}=${String(value)}`)
          .join(' '),
      ])}
    />
  );
}

/** One charge's refund form: the whole charge or part of it, with a reason; asks before it refunds. */
function RefundForm({
  charge,
  planName,
  customer,
  onDone,
}: {
  charge: CustomerRecord['charges'][number];
  planName: string;
  customer: string;
  onDone: (message: string) => void;
}) {
  const [amount, setAmount] = useState((charge.amount_minor / 100).toFixed(2));
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState(false);
  const amountMinor = Math.round(Number(amount) * 100);
  const refund = async () => {
    setAsking(false);
    setBusy(true);
    try {
      const done = await refundCharge({ charge_id: charge.id, amount_minor: amountMinor, reason });
      onDone(`Refunded ${formatMinor(done.refunded_minor)} (gateway refund ${done.gateway_refund_id}).`);
    } catch (reason) {
      onDone(errorMessage(reason));
    } finally {
      setBusy(false);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAsking(true);
  };
  return (
    <form className="admin-inline-form" onSubmit={submit} data-testid={`refund-${charge.id}`}>
      <label>
        Amount ($)
        <input
          type="number"
          min="0.01"
          step="0.01"
          max={(charge.amount_minor / 100).toFixed(2)}
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
          required
        />
      </label>
      <label>
        Reason
        <input value={reason} onChange={(event) => setReason(event.target.value)} required maxLength={200} />
      </label>
      <button type="submit" className="admin-button" disabled={busy}>
        Refund
      </button>
      {asking && (
        <ConfirmDialog
          title="Refund this charge?"
          confirmLabel={`Refund ${formatMinor(amountMinor)}`}
          onConfirm={() => void refund()}
          onDismiss={() => setAsking(false)}
        >
          <p>
            Refund <strong>{formatMinor(amountMinor)}</strong> of the {formatMinor(charge.amount_minor)} {planName} charge of{' '}
            <strong>{customer}</strong> ({formatLocalTime(charge.created_at)}). The money goes back to the card; the customer gets an email.
          </p>
        </ConfirmDialog>
      )}
    </form>
  );
}

/** What each dispute status means to the operator. */
const DISPUTE_STATUS_TEXT: Record<CustomerDispute['status'], string> = {
  needs_response: 'open, waiting for our answer',
  under_review: 'evidence submitted, the bank decides',
  won: 'won: the money stays with us',
  lost: 'lost: charged back to the cardholder',
  accepted: 'accepted: charged back to the cardholder',
};

/**
 * One card dispute (ADR 182): its status and due date; while it can be answered, evidence (the
 * operator's text, the customer's history attached by the server) or acceptance, each asked first.
 */
function DisputeCard({
  dispute,
  planName,
  canAnswer,
  onDone,
}: {
  dispute: CustomerDispute;
  planName: string;
  canAnswer: boolean;
  onDone: (message: string) => void;
}) {
  const [text, setText] = useState('');
  const [asking, setAsking] = useState<'evidence' | 'accept' | null>(null);
  const [busy, setBusy] = useState(false);
  const answer = async (what: 'evidence' | 'accept') => {
    setAsking(null);
    setBusy(true);
    try {
      const done = what === 'evidence' ? await submitDisputeEvidence(dispute.dispute_id, text) : await acceptDispute(dispute.dispute_id);
      onDone(
        what === 'evidence'
          ? `Evidence sent with ${done.evidence_entries} entries of the customer’s history: ${DISPUTE_STATUS_TEXT[done.dispute.status]}.`
          : `Dispute accepted: ${DISPUTE_STATUS_TEXT[done.dispute.status]}.`,
      );
    } catch (reason) {
      onDone(errorMessage(reason));
    } finally {
      setBusy(false);
    }
  };
  return (
    <article className="admin-card" data-testid={`dispute-${dispute.dispute_id}`}>
      <p>
        <strong>Disputed {formatMinor(dispute.amount_minor)}</strong> · {planName} · {dispute.reason} ·{' '}
        <span data-testid="dispute-status">{DISPUTE_STATUS_TEXT[dispute.status]}</span> · opened {formatLocalTime(dispute.opened_at)} ·
        evidence due by {formatLocalTime(dispute.evidence_due_by)}
        {dispute.evidence_submitted_at ? ` · evidence sent ${formatLocalTime(dispute.evidence_submitted_at)}` : ''}
        {dispute.closed_at ? ` · ended ${formatLocalTime(dispute.closed_at)}` : ''}
      </p>
      {dispute.refund_blocked && (
        <p>
          This payment cannot be refunded:{' '}
          {dispute.status === 'lost' || dispute.status === 'accepted' ? 'the bank already returned it.' : 'the dispute is open.'}
        </p>
      )}
      {canAnswer && dispute.answerable && (
        <form
          className="admin-inline-form"
          onSubmit={(event) => {
            event.preventDefault();
            setAsking('evidence');
          }}
        >
          <label>
            Evidence for the bank
            <textarea value={text} onChange={(event) => setText(event.target.value)} required maxLength={5000} rows={3} />
          </label>
          <p>The customer’s consent, payments, receipts, sign-ins and reports are attached.</p>
          <button type="submit" className="admin-button" disabled={busy}>
            Submit evidence
          </button>
          <button type="button" className="admin-button admin-button--quiet" disabled={busy} onClick={() => setAsking('accept')}>
            Accept the dispute
          </button>
        </form>
      )}
      {asking && (
        <ConfirmDialog
          title={asking === 'evidence' ? 'Send this evidence?' : 'Accept this dispute?'}
          confirmLabel={asking === 'evidence' ? 'Send evidence' : `Accept and lose ${formatMinor(dispute.amount_minor)}`}
          onConfirm={() => void answer(asking)}
          onDismiss={() => setAsking(null)}
        >
          <p>
            {asking === 'evidence'
              ? 'The bank gets your text and the customer’s history. Evidence is sent once and cannot be changed.'
              : `The ${formatMinor(dispute.amount_minor)} stays with the cardholder, the purchase ends now and access with it.`}
          </p>
        </ConfirmDialog>
      )}
    </article>
  );
}

type PendingCancel = { subscription: CustomerRecord['subscriptions'][number]; when: 'now' | 'period_end' };

/** Search results: one row per purchase, opened by the customer's email. */
function SearchResults({
  result,
  onOpen,
  onPage,
}: {
  result: AdminSearchResult;
  onOpen: (email: string) => void;
  onPage: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(result.total / result.page_size));
  return (
    <div data-testid="search-results">
      {result.items.length === 0 && <p>No customer matches.</p>}
      <ul className="admin-results">
        {result.items.map((hit) => (
          <li key={hit.subscription_id}>
            <button type="button" className="admin-button admin-button--quiet" onClick={() => onOpen(hit.email)}>
              Open {hit.email}
            </button>{' '}
            {hit.plan_name} · {hit.status} · card {hit.card_last4 ?? '—'} · bought {formatLocalTime(hit.created_at)} · matched by{' '}
            {hit.matched.replace('_', ' ')}
          </li>
        ))}
      </ul>
      {pages > 1 && (
        <div className="admin-pager">
          <button
            type="button"
            className="admin-button admin-button--quiet"
            disabled={result.page <= 1}
            onClick={() => onPage(result.page - 1)}
          >
            Previous page
          </button>
          <span>
            Page {result.page} of {pages} ({result.total} in all)
          </span>
          <button
            type="button"
            className="admin-button admin-button--quiet"
            disabled={result.page >= pages}
            onClick={() => onPage(result.page + 1)}
          >
            Next page
          </button>
        </div>
      )}
    </div>
  );
}

/** Everything that happened to the customer, oldest first, in the operator's time zone. */
function CustomerTimelineTable({ email, version }: { email: string; version: number }) {
  const timeline = useResource(`timeline:${email}:${version}`, (signal) => getCustomerTimeline(email, signal));
  if (timeline.status === 'loading') return <p role="status">Loading the timeline…</p>;
  if (timeline.status === 'error') return <p role="alert">{errorMessage(timeline.error)}</p>;
  return (
    <DataTable
      caption={`Timeline (${browserTimeZone()})`}
      testId="customer-timeline"
      csvName="customer-timeline.csv"
      columns={['when', 'what', 'plan', 'amount', 'detail']}
      rows={timeline.data.events.map((event) => [
        formatLocalTime(event.at),
        event.kind.replaceAll('_', ' '),
        event.plan_name,
        event.amount_minor === null ? null : formatMinor(event.amount_minor),
        event.detail,
      ])}
    />
  );
}

/**
 * Find a customer (part of an email, an id prefix, an execution id, a card's last four), see
 * everything about them and their timeline, act on it; refunds and cancels ask first.
 */
export function CustomersView() {
  const catalog = usePlanCatalog();
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<AdminSearchResult | null>(null);
  const [record, setRecord] = useState<CustomerRecord | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [cancelReason, setCancelReason] = useState('');
  // What the role may not do is not offered (the server refuses it anyway).
  const canCare = useCan('customers.care');
  const canDelete = useCan('customers.delete');
  const [pendingCancel, setPendingCancel] = useState<PendingCancel | null>(null);
  const [version, setVersion] = useState(0);
  const planName = (planId: string) => planNameIn(catalog, planId);

  const load = async (q: string) => {
    try {
      setRecord(await lookUpCustomer(q));
      setVersion((value) => value + 1);
    } catch (reason) {
      setMessage(errorMessage(reason));
    }
  };
  const search = async (q: string, page: number) => {
    setRecord(null);
    try {
      const found = await searchCustomers(q, { page, page_size: SEARCH_PAGE_SIZE });
      const emails = new Set(found.items.map((hit) => hit.email));
      // One customer found: straight to their page. None and an address: the lookup still shows what we keep (emails, audit).
      if (found.total > 0 && emails.size === 1 && found.total === found.items.length) {
        setResults(null);
        await load(found.items[0]!.email);
      } else if (found.total === 0 && q.includes('@')) {
        setResults(null);
        await load(q);
      } else setResults(found);
    } catch (reason) {
      setMessage(errorMessage(reason));
    }
  };
  const act = async (action: () => Promise<unknown>, done: string) => {
    setMessage(null);
    try {
      await action();
      setMessage(done);
    } catch (reason) {
      setMessage(errorMessage(reason));
    }
    if (record) await load(record.query);
  };
  const afterRefund = async (text: string) => {
    setMessage(text);
    if (record) await load(record.query);
  };
  const subscriptionOf = (id: string) => record?.subscriptions.find((subscription) => subscription.id === id);
  // A disputed charge offers no refund (the server refuses it too, ADR 182).
  const blockedCharge = (charge: CustomerRecord['charges'][number]) =>
    record?.disputes.some(
      (dispute) => dispute.refund_blocked && (dispute.charge_id === charge.id || dispute.execution_id === charge.execution_id),
    ) ?? false;

  return (
    <section aria-labelledby="customers-title" data-testid="admin-customers">
      <h2 id="customers-title">Customer care</h2>
      <form
        className="admin-inline-form"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          setMessage(null);
          void search(query.trim(), 1);
        }}
      >
        <label>
          Part of an email, an id, an execution id or a card’s last four
          <input value={query} onChange={(event) => setQuery(event.target.value)} required minLength={3} />
        </label>
        <button type="submit" className="admin-button">
          Search
        </button>
      </form>
      {message && (
        <p role="status" data-testid="customer-message">
          {message}
        </p>
      )}
      {results && (
        <SearchResults result={results} onOpen={(email) => void load(email)} onPage={(page) => void search(query.trim(), page)} />
      )}
      {record && (
        <div data-testid="customer-record">
          <p>Times are in your time zone ({browserTimeZone()}).</p>
          {record.subscriptions.length === 0 && <p>No purchase with this email or id.</p>}
          {record.subscriptions.map((subscription) => (
            <article key={subscription.id} className="admin-card" data-testid={`subscription-${subscription.id}`}>
              <h3>
                {planName(subscription.plan_id)} — {subscription.status}
              </h3>
              <p>
                {subscription.email} · {subscription.id} · card {subscription.card_last4 ?? '—'} · period ends{' '}
                {subscription.current_period_end ? formatLocalTime(subscription.current_period_end) : 'never'}
              </p>
              <details>
                <summary>Consent record</summary>
                <p>
                  Accepted {formatLocalTime(subscription.consent.at)} from {subscription.consent.ip} ({subscription.consent.user_agent}),
                  terms {subscription.consent.terms_version}:
                </p>
                <blockquote>{subscription.consent.terms_text}</blockquote>
              </details>
              {canCare && (
                <>
                  <label>
                    Reason for cancelling
                    <input value={cancelReason} onChange={(event) => setCancelReason(event.target.value)} maxLength={200} />
                  </label>
                  <div className="admin-actions">
                    <button type="button" className="admin-button" onClick={() => setPendingCancel({ subscription, when: 'period_end' })}>
                      Cancel at period end
                    </button>
                    <button type="button" className="admin-button" onClick={() => setPendingCancel({ subscription, when: 'now' })}>
                      Cancel now
                    </button>
                    <button
                      type="button"
                      className="admin-button admin-button--quiet"
                      onClick={() =>
                        void act(() => resendEmail({ subscription_id: subscription.id, what: 'receipt' }), 'Receipt sent again.')
                      }
                    >
                      Resend receipt
                    </button>
                    <button
                      type="button"
                      className="admin-button admin-button--quiet"
                      onClick={() =>
                        void act(() => resendEmail({ subscription_id: subscription.id, what: 'cancel_link' }), 'Cancel link sent.')
                      }
                    >
                      Resend cancel link
                    </button>
                  </div>
                </>
              )}
            </article>
          ))}
          {pendingCancel && (
            <ConfirmDialog
              title={pendingCancel.when === 'now' ? 'Cancel now?' : 'Cancel at period end?'}
              confirmLabel={pendingCancel.when === 'now' ? 'Cancel now' : 'Cancel at period end'}
              onDismiss={() => setPendingCancel(null)}
              onConfirm={() => {
                const { subscription, when } = pendingCancel;
                setPendingCancel(null);
                void act(
                  () => cancelSubscription({ subscription_id: subscription.id, when, reason: cancelReason || 'operator' }),
                  when === 'now' ? 'Canceled now.' : 'Canceled at period end.',
                );
              }}
            >
              <p>
                Cancel the <strong>{planName(pendingCancel.subscription.plan_id)}</strong> of{' '}
                <strong>{pendingCancel.subscription.email}</strong>
                {pendingCancel.when === 'now'
                  ? ': access ends at once. Nothing is refunded by this.'
                  : `: it does not renew; access lasts until ${pendingCancel.subscription.current_period_end ? formatLocalTime(pendingCancel.subscription.current_period_end) : 'the period ends'}.`}{' '}
                The customer gets an email.
              </p>
            </ConfirmDialog>
          )}
          <h3>Timeline</h3>
          {record.emails_found[0] && <CustomerTimelineTable email={record.emails_found[0]} version={version} />}
          {record.disputes.length > 0 && (
            <>
              <h3>Disputes</h3>
              {record.disputes.map((dispute) => (
                <DisputeCard
                  key={dispute.dispute_id}
                  dispute={dispute}
                  planName={planName(subscriptionOf(dispute.subscription_id ?? '')?.plan_id ?? '')}
                  canAnswer={canCare}
                  onDone={(text) => void afterRefund(text)}
                />
              ))}
            </>
          )}
          <h3>Charges</h3>
          {record.charges.map((charge) => (
            <article key={charge.id} className="admin-card" data-testid={`charge-${charge.id}`}>
              <p>
                {formatLocalTime(charge.created_at)} · {planName(subscriptionOf(charge.subscription_id)?.plan_id ?? '')} · {charge.kind} ·{' '}
                {charge.status} · {formatMinor(charge.amount_minor)}
                {charge.refunded_minor > 0 ? ` · refunded ${formatMinor(charge.refunded_minor)}` : ''}
                {charge.decline_code ? ` · declined ${charge.decline_code}` : ''}
              </p>
              {blockedCharge(charge) && <p>Disputed: no refund while the dispute is open or after a chargeback.</p>}
              {canCare && charge.status === 'succeeded' && charge.refunded_minor === 0 && !blockedCharge(charge) && (
                <RefundForm
                  charge={charge}
                  planName={planName(subscriptionOf(charge.subscription_id)?.plan_id ?? '')}
                  customer={subscriptionOf(charge.subscription_id)?.email ?? ''}
                  onDone={(text) => void afterRefund(text)}
                />
              )}
            </article>
          ))}
          <DataTable
            caption="Refunds"
            columns={['when', 'charge', 'amount']}
            rows={record.refunds.map((row) => [formatLocalTime(row.created_at), row.charge_id, formatMinor(row.amount_minor)])}
          />
          <DataTable
            caption="Emails sent"
            testId="customer-emails"
            columns={['when', 'kind', 'subject', 'status']}
            rows={record.emails.map((row) => [formatLocalTime(row.created_at), row.kind, row.subject, row.status])}
          />
          <DataTable
            caption="Reports (status and estimate; no image is kept)"
            columns={['when', 'status', 'error', 'estimate']}
            rows={record.reports.map((row) => [
              formatLocalTime(row.created_at),
              row.status,
              row.error_code,
              row.estimate.map((group) => `${group.group} ${group.share}%`).join(', '),
            ])}
          />
          <AuditTable entries={record.audit} caption="Audit of this customer" />
          {canDelete && record.emails_found[0] && (
            <button
              type="button"
              className="admin-button admin-button--danger"
              onClick={() => {
                const email = record.emails_found[0]!;
                if (window.confirm(`Delete the data of ${email}? Purchases stay as the accounting record.`))
                  void act(() => deleteCustomerData(email), 'The customer’s data was deleted.');
              }}
            >
              Delete this customer’s data
            </button>
          )}
        </div>
      )}
    </section>
  );
}
