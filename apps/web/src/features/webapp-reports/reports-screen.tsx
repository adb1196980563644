import { topEstimateSentence } from '@roots/contracts/heritage-wording';
import type { ReportSummary } from '@roots/contracts/reports';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { TakeSelfieLink } from '../../components/selfie/take-selfie-link';
import { Loaded } from '../../components/ui/loaded';
import { useSignedIn } from '../../lib/auth-guard';
import { errorMessage } from '../../lib/api-client';
import { productPath, ROUTE_PATHS } from '../../lib/paths';
import { usePublicConfig } from '../../lib/public-config-context';
import { reportOwed } from '../../lib/report-rights';
import { useResource } from '../../lib/use-resource';
import { listReports } from '../../lib/webapp-api';
import { downloadReportPdf } from './api/download-pdf';
import './reports.css';

const formatDate = (iso: string) => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** One report of the history: date, kind, status, top estimate, a link to it and its PDF when completed. */
function ReportRow({ report, slug }: { report: ReportSummary; slug: string }) {
  const { t } = useTranslation();
  const [pdfError, setPdfError] = useState<string | null>(null);
  const [downloading, setDownloading] = useState(false);
  const date = formatDate(report.created_at);
  const download = async () => {
    setPdfError(null);
    setDownloading(true);
    try {
      await downloadReportPdf(report.report_id);
    } catch (reason) {
      setPdfError(errorMessage(reason, t('webapp.reports.pdfFailed')));
    } finally {
      setDownloading(false);
    }
  };
  return (
    <li className="report-row" data-testid="report-row" data-status={report.status}>
      <p className="report-row__date">{t('webapp.reports.created', { date })}</p>
      <p className="hint">
        {t(`webapp.reports.kinds.${report.kind}`)} ·{' '}
        {t('webapp.reports.statusLabel', { status: t(`webapp.reports.statuses.${report.status}`) })}
      </p>
      {report.top_estimate && <p>{topEstimateSentence(report.top_estimate)}</p>}
      <div className="report-row__actions">
        <Link to={productPath(slug, ROUTE_PATHS.myEthnicity.replace(':reportId', report.report_id))}>
          {t('webapp.reports.open', { date })}
        </Link>
        {report.status === 'completed' && (
          <button type="button" className="button button--secondary" disabled={downloading} onClick={() => void download()}>
            {t('webapp.reports.pdf', { date })}
          </button>
        )}
      </div>
      {pdfError && <p role="alert">{pdfError}</p>}
    </li>
  );
}

/** The history's list, newest first, or its empty state. */
export function ReportList({ reports, slug }: { reports: readonly ReportSummary[]; slug: string }) {
  const { t } = useTranslation();
  if (reports.length === 0) {
    return (
      <p className="notice" data-testid="reports-empty">
        {t('webapp.reports.empty')}
      </p>
    );
  }
  return (
    <ul className="report-list" aria-label={t('webapp.reports.list')}>
      {reports.map((report) => (
        <ReportRow key={report.report_id} report={report} slug={slug} />
      ))}
    </ul>
  );
}

/**
 * Reports history (product-spec §2, `/{slug}/webapp/reports`): the signed-in user's reports, newest
 * first, and 'Take a selfie' while a report is owed and missing (ADR 145).
 */
export function ReportsScreen() {
  const { t } = useTranslation();
  const { slug } = usePublicConfig();
  const me = useSignedIn();
  // Nothing loads before the session is read: until then the list shows as loading.
  const reports = useResource(me ? me.user.uid : null, (signal) => listReports(signal));

  return (
    <main className="screen reports" data-testid="reports-screen">
      <h1 className="screen__title">{t('screens.titles.reports')}</h1>
      <Loaded resource={reports} loading={t('webapp.reports.loading')}>
        {(list) => (
          <>
            {me && reportOwed(me.access, list) && <TakeSelfieLink slug={slug} reason={list.length > 0 ? 'retake' : 'owed'} />}
            <ReportList reports={list} slug={slug} />
          </>
        )}
      </Loaded>
      <Link to={productPath(slug, ROUTE_PATHS.webapp)}>{t('webapp.myEthnicity.toHome')}</Link>
    </main>
  );
}
