import type { DateRangeQuery, FunnelReport, QualityReport, RevenueReport } from '@roots/contracts/admin';
import type { ReactNode } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { errorMessage } from '../../lib/api-client';
import { useResource, type Resource } from '../../lib/use-resource';
import { formatMinor, formatShare, getFunnel, getQuality, getReconciliation, getRevenue } from './admin-api';
import { DataTable } from './data-table';

const STEP_LABELS: Record<FunnelReport['steps'][number], string> = {
  landing: 'Landing',
  consent: 'Consent',
  selfie: 'Selfie',
  processing: 'Processing',
  email: 'Email',
  paywall: 'Paywall',
  purchase: 'Purchase',
  offers: 'Offers',
  sign_in: 'Sign-in',
};

/** Loading, error or the view of the data. */
function Loaded<T>({ resource, children }: { resource: Resource<T>; children: (data: T) => ReactNode }) {
  if (resource.status === 'loading') return <p role="status">Loading…</p>;
  if (resource.status === 'error') return <p role="alert">{errorMessage(resource.error)}</p>;
  return <>{children(resource.data)}</>;
}

const rangeKey = (range: DateRangeQuery) => `${range.from}..${range.to}`;
const fileSuffix = (range: DateRangeQuery) => `${range.from}_${range.to}`;

/** Conversion by step, drop-off, per day and per attribution source. */
export function FunnelView({ range }: { range: DateRangeQuery }) {
  const funnel = useResource(rangeKey(range), (signal) => getFunnel(range, signal));
  return (
    <Loaded resource={funnel}>
      {(report) => (
        <section aria-labelledby="funnel-title" data-testid="admin-funnel">
          <h2 id="funnel-title">Funnel</h2>
          <figure className="admin-chart">
            <ResponsiveContainer width="100%" height={260}>
              <BarChart data={report.totals.map((row) => ({ step: STEP_LABELS[row.step], count: row.count }))}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="step" interval={0} angle={-30} textAnchor="end" height={60} />
                <YAxis allowDecimals={false} />
                <Tooltip />
                <Bar dataKey="count" name="Visitors at the step" fill="#3158d3" isAnimationActive={false} />
              </BarChart>
            </ResponsiveContainer>
            <figcaption>Visitors reaching each step over the range; the table below has the figures.</figcaption>
          </figure>
          <DataTable
            caption="Steps"
            testId="funnel-steps"
            csvName={`funnel-steps_${fileSuffix(range)}.csv`}
            columns={['step', 'count', 'conversion from landing', 'drop-off from previous step']}
            rows={report.totals.map((row) => [STEP_LABELS[row.step], row.count, formatShare(row.conversion), formatShare(row.drop_off)])}
          />
          <DataTable
            caption="By day"
            csvName={`funnel-days_${fileSuffix(range)}.csv`}
            columns={['day', ...report.steps.map((step) => STEP_LABELS[step])]}
            rows={report.days.map((day) => [day.day, ...report.steps.map((step) => day.counts[step])])}
          />
          <DataTable
            caption="By source (campaign, media source, country, landing variant)"
            testId="funnel-sources"
            csvName={`funnel-sources_${fileSuffix(range)}.csv`}
            columns={['dimension', 'value', ...report.steps.map((step) => STEP_LABELS[step])]}
            rows={report.sources.map((source) => [source.dimension, source.value, ...report.steps.map((step) => source.counts[step])])}
          />
        </section>
      )}
    </Loaded>
  );
}

/** Trials, conversion, renewals and dunning, refunds, cancellations, add-ons, MRR; reconciled with the gateway. */
export function RevenueView({ range }: { range: DateRangeQuery }) {
  const revenue = useResource(rangeKey(range), (signal) => getRevenue(range, signal));
  const reconciliation = useResource(rangeKey(range), (signal) => getReconciliation(range, signal));
  return (
    <Loaded resource={revenue}>
      {(report: RevenueReport) => (
        <section aria-labelledby="revenue-title" data-testid="admin-revenue">
          <h2 id="revenue-title">Revenue</h2>
          <dl className="admin-figures" data-testid="revenue-figures">
            <div>
              <dt>Active subscriptions</dt>
              <dd data-testid="figure-active">{report.active_subscriptions}</dd>
            </div>
            <div>
              <dt>MRR</dt>
              <dd data-testid="figure-mrr">{formatMinor(report.mrr_minor)}</dd>
            </div>
            <div>
              <dt>Trials started</dt>
              <dd data-testid="figure-trials">{report.totals.trials_started}</dd>
            </div>
            <div>
              <dt>Trial → paid</dt>
              <dd data-testid="figure-trial-to-paid">{formatShare(report.totals.trial_to_paid)}</dd>
            </div>
            <div>
              <dt>Gross</dt>
              <dd data-testid="figure-gross">{formatMinor(report.totals.gross_minor)}</dd>
            </div>
            <div>
              <dt>Refunded</dt>
              <dd data-testid="figure-refunded">{formatMinor(report.totals.refunded_minor)}</dd>
            </div>
            <div>
              <dt>Add-on revenue</dt>
              <dd data-testid="figure-addons">{formatMinor(report.totals.addon_minor)}</dd>
            </div>
            <div>
              <dt>Renewals (failed, recovered)</dt>
              <dd data-testid="figure-renewals">
                {report.totals.renewals} ({report.totals.renewal_failures}, {report.totals.recovered})
              </dd>
            </div>
          </dl>
          <figure className="admin-chart">
            <ResponsiveContainer width="100%" height={260}>
              <LineChart
                data={report.days.map((day) => ({ day: day.day, gross: day.gross_minor / 100, refunded: day.refunded_minor / 100 }))}
              >
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="day" />
                <YAxis />
                <Tooltip />
                <Legend />
                <Line type="monotone" dataKey="gross" name="Gross ($)" stroke="#1b7f3b" dot={false} isAnimationActive={false} />
                <Line type="monotone" dataKey="refunded" name="Refunded ($)" stroke="#b3261e" dot={false} isAnimationActive={false} />
              </LineChart>
            </ResponsiveContainer>
            <figcaption>Gross charges and refunds per day.</figcaption>
          </figure>
          <DataTable
            caption="Revenue by day"
            testId="revenue-days"
            csvName={`revenue-days_${fileSuffix(range)}.csv`}
            columns={[
              'day',
              'trials',
              'direct purchases',
              'trial conversions',
              'renewals',
              'renewal failures',
              'recovered',
              'refunds',
              'refunded',
              'cancellations',
              'add-ons',
              'gross',
            ]}
            rows={report.days.map((day) => [
              day.day,
              day.trials_started,
              day.direct_purchases,
              day.trial_conversions,
              day.renewals,
              day.renewal_failures,
              day.recovered,
              day.refunds,
              formatMinor(day.refunded_minor),
              day.cancellations,
              formatMinor(day.addon_minor),
              formatMinor(day.gross_minor),
            ])}
          />
          <DataTable
            caption="Cancellations by channel and reason"
            csvName={`cancellations_${fileSuffix(range)}.csv`}
            columns={['channel', 'reason', 'count']}
            rows={report.cancellations.map((row) => [row.channel, row.reason, row.count])}
          />
          <h3>Reconciliation with the gateway</h3>
          <Loaded resource={reconciliation}>
            {(result) => (
              <div data-testid="reconciliation">
                <p role="status">
                  {result.checked} charges checked against the gateway’s executions
                  {result.truncated ? ' (the first ones of the range only)' : ''}:{' '}
                  {result.mismatches.length === 0 ? 'no mismatch.' : `${result.mismatches.length} mismatches.`}
                </p>
                {result.mismatches.length > 0 && (
                  <DataTable
                    caption="Mismatches"
                    csvName={`mismatches_${fileSuffix(range)}.csv`}
                    columns={['charge', 'execution', 'field', 'ours', 'gateway']}
                    rows={result.mismatches.map((row) => [row.charge_id, row.execution_id, row.field, row.ours, row.gateway])}
                  />
                )}
              </div>
            )}
          </Loaded>
        </section>
      )}
    </Loaded>
  );
}

/** Reports by status, refusals by error code, the 'looks correct' share, feedback texts, model versions. */
export function QualityView({ range }: { range: DateRangeQuery }) {
  const quality = useResource(rangeKey(range), (signal) => getQuality(range, signal));
  return (
    <Loaded resource={quality}>
      {(report: QualityReport) => (
        <section aria-labelledby="quality-title" data-testid="admin-quality">
          <h2 id="quality-title">Quality</h2>
          <p data-testid="quality-share">
            {report.feedback.answered} customers answered; {formatShare(report.feedback.share_correct)} said the results look correct.
          </p>
          <DataTable
            caption="Reports by status"
            csvName={`reports_${fileSuffix(range)}.csv`}
            columns={['status', 'count']}
            rows={report.by_status.map((row) => [row.status, row.count])}
          />
          <DataTable
            caption="Refusals by error code"
            csvName={`refusals_${fileSuffix(range)}.csv`}
            columns={['error code', 'count']}
            rows={report.refusals.map((row) => [row.error_code, row.count])}
          />
          <DataTable
            caption="Model versions"
            columns={['version', 'reports']}
            rows={report.model_versions.map((row) => [row.version, row.count])}
          />
          <DataTable
            caption="Feedback texts"
            csvName={`feedback_${fileSuffix(range)}.csv`}
            columns={['at', 'looks correct', 'text']}
            rows={report.feedback.texts.map((row) => [row.at, row.looks_correct ? 'yes' : 'no', row.text])}
          />
        </section>
      )}
    </Loaded>
  );
}
