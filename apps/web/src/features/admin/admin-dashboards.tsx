import {
  CARD_NETWORK_DISPUTE_THRESHOLDS,
  DISPUTE_RATE_ALERT,
  COHORT_PERIODS,
  type CancelChannel,
  type DateRangeQuery,
  type FunnelReport,
  type QualityReport,
  type RevenueReport,
} from '@roots/contracts/admin';
import type { ReactNode } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { errorMessage } from '../../lib/api-client';
import { useResource, type Resource } from '../../lib/use-resource';
import { formatMinor, formatShare, getFunnel, getQuality, getReconciliation, getRevenue } from './admin-api';
import { DataTable } from './data-table';

/** A dispute ratio as a percent with two decimals (the networks' thresholds are 0.65 %, 0.9 %, 1.5 %). */
const formatRate = (ratio: number) => `${(ratio * 100).toFixed(2)}%`;

const STEP_LABELS: Record<FunnelReport['steps'][number], string> = {
  landing: 'Landing',
  consent: 'Consent',
  camera_tip: 'Camera tip',
  selfie: 'Selfie',
  processing: 'Processing',
  email: 'Email',
  paywall: 'Paywall',
  purchase: 'Purchase',
  offers: 'Offers',
  sign_in: 'Sign-in',
};

const CHANNEL_LABELS: Record<CancelChannel, string> = {
  email_code: 'Email code (customer)',
  one_click_link: 'One-click link (customer)',
  account: 'Account (customer)',
  by_id: 'By id (customer)',
  operator: 'Operator',
  payment_failed: 'Payment failed (involuntary)',
  refund: 'Refunded in full',
};

/** One figure of a figures list. */
function Figure({ label, testId, value }: { label: string; testId: string; value: string }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}

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
                <Bar dataKey="count" name="Visits at the step" fill="#3158d3" isAnimationActive={false} />
              </BarChart>
            </ResponsiveContainer>
            <figcaption>
              Unique visits reaching each step in the range (a reload or a repeat is the same visit); the table below has the figures.
            </figcaption>
          </figure>
          <DataTable
            caption={`Steps: unique visits in the range ${range.from} to ${range.to}`}
            testId="funnel-steps"
            csvName={`funnel-steps_${fileSuffix(range)}.csv`}
            columns={['step', 'visits', 'conversion from landing', 'drop-off from previous step']}
            rows={report.totals.map((row) => [STEP_LABELS[row.step], row.count, formatShare(row.conversion), formatShare(row.drop_off)])}
          />
          <DataTable
            caption="Unique visits by day"
            csvName={`funnel-days_${fileSuffix(range)}.csv`}
            columns={['day', ...report.steps.map((step) => STEP_LABELS[step])]}
            rows={report.days.map((day) => [day.day, ...report.steps.map((step) => day.counts[step])])}
          />
          <DataTable
            caption="Unique visits by source (campaign, media source, country, the variant the visit started in)"
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
      {(report: RevenueReport) => {
        const totals = report.totals;
        return (
          <section aria-labelledby="revenue-title" data-testid="admin-revenue">
            <h2 id="revenue-title">Revenue</h2>
            <p className="admin-note">
              Each figure is defined in the operator guide’s metrics page; “in the range” covers {range.from} to {range.to} (UTC), “now” is
              the moment of this page.
            </p>
            <h3 id="revenue-range-title">In the range</h3>
            <dl className="admin-figures" data-testid="revenue-figures" aria-labelledby="revenue-range-title">
              <Figure label="Gross (charges before refunds)" testId="figure-gross" value={formatMinor(totals.gross_minor)} />
              <Figure label="Add-on revenue" testId="figure-addons" value={formatMinor(totals.addon_minor)} />
              <Figure label="Refunded to customers" testId="figure-refunded" value={formatMinor(totals.refunded_minor)} />
              <Figure label="Refunds to customers" testId="figure-refunds" value={String(totals.refunds)} />
              <Figure
                label="Automatic refunds (payments no purchase claimed)"
                testId="figure-auto-refunded"
                value={`${formatMinor(totals.auto_refunded_minor)} (${totals.auto_refunds})`}
              />
              <Figure
                label="Chargebacks (disputes lost or accepted)"
                testId="figure-chargebacks"
                value={`${formatMinor(totals.chargeback_minor)} (${totals.chargebacks})`}
              />
              <Figure label="Disputes opened" testId="figure-disputes" value={String(totals.disputes_opened)} />
              <Figure label="Trials started" testId="figure-trials" value={String(totals.trials_started)} />
              <Figure label="Direct purchases (no trial)" testId="figure-direct" value={String(totals.direct_purchases)} />
              <Figure label="One-time purchases" testId="figure-one-time" value={String(totals.one_time_purchases)} />
              <Figure label="Add-on purchases" testId="figure-addon-purchases" value={String(totals.addon_purchases)} />
              <Figure
                label="Trial → paid (trials that ended in the range)"
                testId="figure-trial-to-paid"
                value={`${formatShare(totals.trial_to_paid)} (${totals.trials_converted} of ${totals.trials_ended})`}
              />
              <Figure
                label="Renewals (failed, recovered)"
                testId="figure-renewals"
                value={`${totals.renewals} (${totals.renewal_failures}, ${totals.recovered})`}
              />
              <Figure label="Trial conversions paid" testId="figure-conversions" value={String(totals.trial_conversions)} />
              <Figure label="Cancellations (all channels)" testId="figure-cancellations" value={String(totals.cancellations)} />
              <Figure
                label="Subscriber churn (voluntary, involuntary)"
                testId="figure-churn"
                value={`${totals.churned_subscribers.voluntary + totals.churned_subscribers.involuntary} (${totals.churned_subscribers.voluntary}, ${totals.churned_subscribers.involuntary})`}
              />
              <Figure
                label="MRR churn (voluntary, involuntary)"
                testId="figure-churn-mrr"
                value={`${formatMinor(totals.churned_mrr_minor.voluntary + totals.churned_mrr_minor.involuntary)} (${formatMinor(totals.churned_mrr_minor.voluntary)}, ${formatMinor(totals.churned_mrr_minor.involuntary)})`}
              />
              <Figure
                label="Subscriber churn rate (of those paying at the start)"
                testId="figure-churn-rate"
                value={`${formatShare(totals.subscriber_churn_rate)} (of ${totals.paying_at_start})`}
              />
              <Figure
                label="MRR churn rate (of the MRR at the start)"
                testId="figure-mrr-churn-rate"
                value={`${formatShare(totals.mrr_churn_rate)} (of ${formatMinor(totals.mrr_at_start_minor)})`}
              />
            </dl>
            <h3 id="revenue-now-title">Now</h3>
            <dl className="admin-figures" data-testid="revenue-now" aria-labelledby="revenue-now-title">
              <Figure label="MRR" testId="figure-mrr" value={formatMinor(report.now.mrr_minor)} />
              <Figure label="Active paying subscriptions" testId="figure-active" value={String(report.now.active_paying)} />
              <Figure
                label="In payment retry (paying and trials, the Past-due queue)"
                testId="figure-past-due"
                value={String(report.now.past_due)}
              />
              <Figure label="Active trials" testId="figure-active-trials" value={String(report.now.active_trials)} />
              <Figure
                label="One-time purchases with access"
                testId="figure-one-time-access"
                value={String(report.now.one_time_with_access)}
              />
            </dl>
            <DataTable
              caption="By plan: new purchases in the range; subscriptions and MRR now"
              testId="revenue-plans"
              csvName={`revenue-plans_${fileSuffix(range)}.csv`}
              columns={['plan', 'new purchases', 'active paying', 'active trials', 'MRR']}
              rows={report.plans.map((row) => [
                row.plan_name,
                row.new_purchases,
                row.active_paying,
                row.active_trials,
                formatMinor(row.mrr_minor),
              ])}
            />
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
                'one-time purchases',
                'trial conversions',
                'renewals',
                'renewal failures',
                'recovered',
                'refunds to customers',
                'refunded to customers',
                'automatic refunds',
                'disputes opened',
                'chargebacks',
                'cancellations',
                'add-ons',
                'gross',
              ]}
              rows={report.days.map((day) => [
                day.day,
                day.trials_started,
                day.direct_purchases,
                day.one_time_purchases,
                day.trial_conversions,
                day.renewals,
                day.renewal_failures,
                day.recovered,
                day.refunds,
                formatMinor(day.refunded_minor),
                formatMinor(day.auto_refunded_minor),
                day.disputes_opened,
                `${formatMinor(day.chargeback_minor)} (${day.chargebacks})`,
                day.cancellations,
                formatMinor(day.addon_minor),
                formatMinor(day.gross_minor),
              ])}
            />
            <DataTable
              caption="Cancellations in the range by channel and reason"
              testId="revenue-cancellations"
              csvName={`cancellations_${fileSuffix(range)}.csv`}
              columns={['channel', 'reason', 'count']}
              rows={report.cancellations.map((row) => [CHANNEL_LABELS[row.channel], row.reason, row.count])}
            />
            <DataTable
              caption="Retention by monthly cohort (first paid period): share still paying N periods later"
              testId="revenue-cohorts"
              csvName={`cohorts_${fileSuffix(range)}.csv`}
              columns={['cohort', 'subscribers', ...Array.from({ length: COHORT_PERIODS }, (_, n) => `period +${n}`)]}
              rows={report.cohorts.map((row) => [
                row.month,
                row.size,
                ...row.retained.map((share) => (share === null ? '—' : formatShare(share))),
              ])}
            />
            <DataTable
              caption={`Dispute rate by month against the card networks’ thresholds (Visa early warning ${formatRate(CARD_NETWORK_DISPUTE_THRESHOLDS.visaEarlyWarning.ratio)}, standard ${formatRate(CARD_NETWORK_DISPUTE_THRESHOLDS.visaStandard.ratio)}; Mastercard ECM ${formatRate(CARD_NETWORK_DISPUTE_THRESHOLDS.mastercardEcm.ratio)}; our alert ${formatRate(DISPUTE_RATE_ALERT)})`}
              testId="revenue-dispute-rate"
              csvName={`dispute-rate_${fileSuffix(range)}.csv`}
              columns={['month', 'disputes', 'card payments', 'Visa ratio (same month)', 'Mastercard ratio (previous month)', 'alert']}
              rows={report.dispute_months.map((row) => [
                row.month,
                row.disputes,
                row.card_payments,
                formatRate(row.visa_ratio),
                formatRate(row.mastercard_ratio),
                row.alert ? 'over our alert level' : 'below',
              ])}
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
        );
      }}
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
