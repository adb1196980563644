import type { DateRangeQuery } from '@roots/contracts/admin';
import { useState, type ReactNode } from 'react';
import { errorMessage } from '../../lib/api-client';
import { useResource, type Resource } from '../../lib/use-resource';
import { formatMinor } from './admin-api';
import { browserTimeZone, formatLocalTime } from './admin-format';
import {
  getDisputes,
  getFailedFirstPayments,
  getPastDue,
  getPlanBreakdown,
  getUnclaimedPayments,
  getUpcomingRenewals,
  getWebhookEvents,
  type Page,
} from './admin-queues-api';
import { DataTable, type DataTableProps } from './data-table';

const PAGE_SIZE = 50;
const QUEUES = ['renewals', 'past_due', 'failed', 'unclaimed', 'disputes', 'webhooks'] as const;
type Queue = (typeof QUEUES)[number];
const QUEUE_LABELS: Record<Queue, string> = {
  renewals: 'Upcoming renewals',
  past_due: 'Past due',
  failed: 'Failed payments',
  unclaimed: 'Unclaimed payments',
  disputes: 'Disputes',
  webhooks: 'Webhooks',
};
/** Days ahead the upcoming-renewals queue offers. */
const RENEWAL_WINDOWS_DAYS = [1, 7, 30] as const;

const money = (minor: number | null) => (minor === null ? 'does not renew' : formatMinor(minor));
/** An amount in its currency: dollars as everywhere in the console, any other currency by its code. */
const amountIn = (minor: number, currency: string) => (currency === 'USD' ? formatMinor(minor) : `${(minor / 100).toFixed(2)} ${currency}`);

/** Page through a queue: previous, where we are, next. */
function Pager({ page, total, onPage }: { page: number; total: number; onPage: (page: number) => void }) {
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  return (
    <div className="admin-pager">
      <button type="button" className="admin-button admin-button--quiet" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous page
      </button>
      <span>
        Page {page} of {pages} ({total} in all)
      </span>
      <button type="button" className="admin-button admin-button--quiet" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next page
      </button>
    </div>
  );
}

function Loaded<T>({ resource, children }: { resource: Resource<T>; children: (data: T) => ReactNode }) {
  if (resource.status === 'loading') return <p role="status">Loading…</p>;
  if (resource.status === 'error') return <p role="alert">{errorMessage(resource.error)}</p>;
  return <>{children(resource.data)}</>;
}

/** A queue's page as a table (with its CSV export) and the pager under it, once loaded. */
function PagedTable<T>({
  resource,
  cells,
  page,
  onPage,
  ...table
}: Omit<DataTableProps, 'rows'> & {
  resource: Resource<{ items: T[]; total: number }>;
  cells: (row: T) => DataTableProps['rows'][number];
  page: number;
  onPage: (page: number) => void;
}) {
  return (
    <Loaded resource={resource}>
      {(data) => (
        <>
          <DataTable {...table} rows={data.items.map(cells)} />
          <Pager page={page} total={data.total} onPage={onPage} />
        </>
      )}
    </Loaded>
  );
}

function QueueTable({ queue, page, onPage }: { queue: Queue; page: number; onPage: (page: number) => void }) {
  const [days, setDays] = useState<number>(7);
  const at: Page = { page, page_size: PAGE_SIZE };
  const renewals = useResource(queue === 'renewals' ? `renewals:${days}:${page}` : null, (signal) => getUpcomingRenewals(days, at, signal));
  const pastDue = useResource(queue === 'past_due' ? `past-due:${page}` : null, (signal) => getPastDue(at, signal));
  const failed = useResource(queue === 'failed' ? `failed:${page}` : null, (signal) => getFailedFirstPayments(at, signal));
  const unclaimed = useResource(queue === 'unclaimed' ? `unclaimed:${page}` : null, (signal) => getUnclaimedPayments(at, signal));
  const disputes = useResource(queue === 'disputes' ? `disputes:${page}` : null, (signal) => getDisputes(at, signal));
  const webhooks = useResource(queue === 'webhooks' ? `webhooks:${page}` : null, (signal) => getWebhookEvents(at, signal));
  switch (queue) {
    case 'renewals':
      return (
        <>
          <label>
            Due within
            <select value={days} onChange={(event) => setDays(Number(event.target.value))}>
              {RENEWAL_WINDOWS_DAYS.map((value) => (
                <option key={value} value={value}>
                  {value === 1 ? 'the next day' : `the next ${value} days`}
                </option>
              ))}
            </select>
          </label>
          <PagedTable
            resource={renewals}
            caption="Upcoming renewals"
            testId="queue-renewals"
            csvName="upcoming-renewals.csv"
            columns={['due', 'customer', 'plan', 'price agreed', 'status']}
            cells={(row) => [formatLocalTime(row.due_at), row.email, row.plan_name, money(row.amount_minor), row.status]}
            page={page}
            onPage={onPage}
          />
        </>
      );
    case 'past_due':
      return (
        <PagedTable
          resource={pastDue}
          caption="Past due"
          testId="queue-past-due"
          csvName="past-due.csv"
          columns={['customer', 'plan', 'price', 'last decline', 'declined', 'retries made', 'next retries']}
          cells={(row) => [
            row.email,
            row.plan_name,
            money(row.amount_minor),
            row.last_decline_code,
            formatLocalTime(row.last_declined_at),
            `${row.retries_done} of ${row.retries_total}`,
            row.retry_schedule.map((when) => formatLocalTime(when)).join('; '),
          ]}
          page={page}
          onPage={onPage}
        />
      );
    case 'failed':
      return (
        <PagedTable
          resource={failed}
          caption="Declined first payments"
          testId="queue-failed-payments"
          csvName="failed-payments.csv"
          columns={['declined', 'customer', 'plan', 'amount', 'reason', 'card', 'execution', 'seen by']}
          cells={(row) => [
            formatLocalTime(row.failed_at),
            row.masked_email ?? 'not given',
            row.plan_name ?? 'unknown',
            formatMinor(row.amount_minor),
            `${row.decline_reason} (${row.decline_code})`,
            row.card_last4 ? `${row.card_network ?? 'card'} •••• ${row.card_last4}` : '',
            row.execution_id,
            row.source,
          ]}
          page={page}
          onPage={onPage}
        />
      );
    case 'unclaimed':
      return (
        <PagedTable
          resource={unclaimed}
          caption="Payments no purchase claimed"
          testId="queue-unclaimed"
          csvName="unclaimed-payments.csv"
          columns={['paid', 'plan', 'amount', 'what the sweep did', 'first seen', 'last change', 'execution']}
          cells={(row) => [
            formatLocalTime(row.paid_at),
            row.plan_name ?? 'unknown',
            formatMinor(row.amount_minor),
            row.status,
            formatLocalTime(row.first_seen_at),
            formatLocalTime(row.updated_at),
            row.execution_id,
          ]}
          page={page}
          onPage={onPage}
        />
      );
    case 'disputes':
      return (
        <PagedTable
          resource={disputes}
          caption="Disputes (chargebacks)"
          testId="queue-disputes"
          csvName="disputes.csv"
          columns={['opened', 'customer', 'plan', 'amount', 'reason', 'status', 'evidence due by', 'execution']}
          cells={(row) => [
            formatLocalTime(row.opened_at),
            row.email ?? 'unknown',
            row.plan_name ?? 'unknown',
            amountIn(row.amount_minor, row.currency),
            row.reason,
            row.status.replaceAll('_', ' '),
            formatLocalTime(row.evidence_due_by),
            row.execution_id,
          ]}
          page={page}
          onPage={onPage}
        />
      );
    case 'webhooks':
      return (
        <PagedTable
          resource={webhooks}
          caption="Gateway webhooks received"
          testId="queue-webhooks"
          csvName="webhooks.csv"
          columns={['received', 'type', 'outcome', 'deliveries', 'execution', 'event']}
          cells={(row) => [formatLocalTime(row.last_received_at), row.type, row.outcome, row.deliveries, row.execution_id, row.event_id]}
          page={page}
          onPage={onPage}
        />
      );
    default: {
      const exhaustive: never = queue;
      return exhaustive;
    }
  }
}

/** The operator's work queues (issue 25), one at a time, paged; times in the operator's zone. */
export function QueuesView() {
  const [queue, setQueue] = useState<Queue>('renewals');
  const [page, setPage] = useState(1);
  return (
    <section aria-labelledby="queues-title" data-testid="admin-queues">
      <h2 id="queues-title">Queues</h2>
      <p>Times are in your time zone ({browserTimeZone()}).</p>
      <nav aria-label="Queues" className="admin-tabs">
        {QUEUES.map((name) => (
          <button
            key={name}
            type="button"
            className="admin-tab"
            aria-pressed={queue === name}
            onClick={() => {
              setQueue(name);
              setPage(1);
            }}
          >
            {QUEUE_LABELS[name]}
          </button>
        ))}
      </nav>
      <QueueTable queue={queue} page={page} onPage={setPage} />
    </section>
  );
}

/** The Plans table (docs/metrics.md, "Plans"): purchases now by the Revenue tab's rules and the range's money, per plan and price. */
export function PlansView({ range }: { range: DateRangeQuery }) {
  const plans = useResource(`plans:${range.from}:${range.to}`, (signal) => getPlanBreakdown(range, signal));
  return (
    <section aria-labelledby="plans-title" data-testid="admin-plans">
      <h2 id="plans-title">Plans</h2>
      <Loaded resource={plans}>
        {(data) => (
          <DataTable
            caption="Plans"
            testId="plans-table"
            csvName="plans.csv"
            columns={['plan', 'price', 'paying now', 'trialing now', 'one-time with access now', 'revenue in range', 'refunded in range']}
            rows={data.plans.map((row) => [
              row.plan_name,
              row.price,
              row.active,
              row.trialing,
              row.one_time_with_access,
              formatMinor(row.revenue_minor),
              formatMinor(row.refunded_minor),
            ])}
          />
        )}
      </Loaded>
    </section>
  );
}
