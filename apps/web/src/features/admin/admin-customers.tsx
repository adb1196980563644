import type { AuditEntry, CustomerRecord } from '@roots/contracts/admin';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../lib/api-client';
import { cancelSubscription, deleteCustomerData, formatMinor, lookUpCustomer, refundCharge, resendEmail } from './admin-api';
import { DataTable } from './data-table';
import { useCan } from './operator-context';

/** The audit trail: who did what, when, on which customer. */
export function AuditTable({ entries, caption = 'Audit log' }: { entries: AuditEntry[]; caption?: string }) {
  return (
    <DataTable
      caption={caption}
      testId="audit-log"
      csvName="audit-log.csv"
      columns={['when', 'operator', 'action', 'customer', 'subscription', 'detail']}
      rows={entries.map((entry) => [
        entry.at,
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

/** One charge's refund form: the whole charge or part of it, with a reason. */
function RefundForm({ charge, onDone }: { charge: CustomerRecord['charges'][number]; onDone: (message: string) => void }) {
  const [amount, setAmount] = useState((charge.amount_minor / 100).toFixed(2));
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      const done = await refundCharge({ charge_id: charge.id, amount_minor: Math.round(Number(amount) * 100), reason });
      onDone(`Refunded ${formatMinor(done.refunded_minor)} (gateway refund ${done.gateway_refund_id}).`);
    } catch (reason) {
      onDone(errorMessage(reason));
    } finally {
      setBusy(false);
    }
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
    </form>
  );
}

/** Look a customer up by email or subscription id, see everything about them, act on it. */
export function CustomersView() {
  const [query, setQuery] = useState('');
  const [record, setRecord] = useState<CustomerRecord | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [cancelReason, setCancelReason] = useState('');
  // What the role may not do is not offered (the server refuses it anyway).
  const canCare = useCan('customers.care');
  const canDelete = useCan('customers.delete');

  const load = async (q: string) => {
    try {
      setRecord(await lookUpCustomer(q));
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

  return (
    <section aria-labelledby="customers-title" data-testid="admin-customers">
      <h2 id="customers-title">Customer care</h2>
      <form
        className="admin-inline-form"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          setMessage(null);
          void load(query);
        }}
      >
        <label>
          Email or subscription id
          <input value={query} onChange={(event) => setQuery(event.target.value)} required minLength={3} />
        </label>
        <button type="submit" className="admin-button">
          Look up
        </button>
      </form>
      {message && (
        <p role="status" data-testid="customer-message">
          {message}
        </p>
      )}
      {record && (
        <div data-testid="customer-record">
          {record.subscriptions.length === 0 && <p>No purchase with this email or id.</p>}
          {record.subscriptions.map((subscription) => (
            <article key={subscription.id} className="admin-card" data-testid={`subscription-${subscription.id}`}>
              <h3>
                {subscription.plan_id} — {subscription.status}
              </h3>
              <p>
                {subscription.email} · {subscription.id} · card {subscription.card_last4 ?? '—'} · period ends{' '}
                {subscription.current_period_end ?? 'never'}
              </p>
              <details>
                <summary>Consent record</summary>
                <p>
                  Accepted {subscription.consent.at} from {subscription.consent.ip} ({subscription.consent.user_agent}), terms{' '}
                  {subscription.consent.terms_version}:
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
                    <button
                      type="button"
                      className="admin-button"
                      onClick={() =>
                        void act(
                          () =>
                            cancelSubscription({
                              subscription_id: subscription.id,
                              when: 'period_end',
                              reason: cancelReason || 'operator',
                            }),
                          'Canceled at period end.',
                        )
                      }
                    >
                      Cancel at period end
                    </button>
                    <button
                      type="button"
                      className="admin-button"
                      onClick={() =>
                        void act(
                          () => cancelSubscription({ subscription_id: subscription.id, when: 'now', reason: cancelReason || 'operator' }),
                          'Canceled now.',
                        )
                      }
                    >
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
          <h3>Charges</h3>
          {record.charges.map((charge) => (
            <article key={charge.id} className="admin-card" data-testid={`charge-${charge.id}`}>
              <p>
                {charge.created_at} · {charge.kind} · {charge.status} · {formatMinor(charge.amount_minor)}
                {charge.refunded_minor > 0 ? ` · refunded ${formatMinor(charge.refunded_minor)}` : ''}
                {charge.decline_code ? ` · declined ${charge.decline_code}` : ''}
              </p>
              {canCare && charge.status === 'succeeded' && charge.refunded_minor === 0 && (
                <RefundForm charge={charge} onDone={(text) => void afterRefund(text)} />
              )}
            </article>
          ))}
          <DataTable
            caption="Refunds"
            columns={['when', 'charge', 'amount']}
            rows={record.refunds.map((row) => [row.created_at, row.charge_id, formatMinor(row.amount_minor)])}
          />
          <DataTable
            caption="Emails sent"
            testId="customer-emails"
            columns={['when', 'kind', 'subject', 'status']}
            rows={record.emails.map((row) => [row.created_at, row.kind, row.subject, row.status])}
          />
          <DataTable
            caption="Reports (status and estimate; no image is kept)"
            columns={['when', 'status', 'error', 'estimate']}
            rows={record.reports.map((row) => [
              row.created_at,
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
