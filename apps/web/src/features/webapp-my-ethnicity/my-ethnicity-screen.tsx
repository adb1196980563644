import { heritageColour, RELIABILITY_EXPLAINED, resemblanceConclusion, shownGroups } from '@roots/contracts/heritage-wording';
import { isFinalReportStatus, REPORT_POLL_INTERVAL_MS, type Report, type ReportResult } from '@roots/contracts/reports';
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { TakeSelfieLink } from '../../components/selfie/take-selfie-link';
import { LoadFailed } from '../../components/ui/loaded';
import { useSignedIn } from '../../lib/auth-guard';
import { FALLBACK_ERROR, RequestError } from '../../lib/api-client';
import { productPath, ROUTE_PATHS } from '../../lib/paths';
import { usePublicConfig } from '../../lib/public-config-context';
import { includesReports } from '../../lib/report-rights';
import { CulturalInsights } from './cultural-insights';
import { EthnicityDiagram } from './ethnicity-diagram';
import { FacialTraits } from './facial-traits';
import { FeedbackQuestion, FeedbackView, type FeedbackTarget } from './feedback';
import { HoroscopeView } from './horoscope-view';
import { useResource } from '../../lib/use-resource';
import { getReport } from '../../lib/webapp-api';
import { track } from '../../lib/track';
import './my-ethnicity.css';

/** Sub-pages of the screen, kept in the query (`?view=`) so Back returns to the report. */
type SubPage = 'report' | 'horoscope' | 'feedback';

const subPageOf = (value: string | null): SubPage => (value === 'horoscope' || value === 'feedback' ? value : 'report');

/** Answers that mean 'no such report for you' (a malformed id, someone else's, deleted). */
const isNotFound = (error: unknown) => error instanceof RequestError && [400, 403, 404].includes(error.status);

/** The body of a completed report: every section of product-spec §2's My Ethnicity. */
function ReportSections({
  report,
  result,
  target,
  slug,
  openSubPage,
}: {
  report: Report;
  result: ReportResult;
  target: FeedbackTarget;
  slug: string;
  openSubPage: (view: SubPage, extra?: Record<string, string>) => void;
}) {
  const { t } = useTranslation();
  const { heritage } = result;
  // One wording and one rule for reliability with the home card and the PDF (ADR 148).
  const groups = shownGroups(heritage);
  return (
    <>
      <section aria-labelledby="conclusion-title" className="report-section">
        <h2 id="conclusion-title">{t('webapp.myEthnicity.conclusion.title')}</h2>
        <p className="report-section__lead" data-testid="ethnicity-conclusion">
          {resemblanceConclusion(heritage)}
        </p>
        <p>
          {t('webapp.myEthnicity.conclusion.confidence', { level: t(`webapp.myEthnicity.conclusion.levels.${heritage.confidenceLevel}`) })}
        </p>
        <p className="notice">{t('webapp.myEthnicity.honesty')}</p>
      </section>

      <section aria-labelledby="diagram-title" className="report-section">
        <h2 id="diagram-title">{t('webapp.myEthnicity.diagram.title')}</h2>
        <EthnicityDiagram groups={groups} />
      </section>

      <section aria-labelledby="detail-title" className="report-section">
        <h2 id="detail-title">{t('webapp.myEthnicity.detail.title')}</h2>
        <p className="hint">{RELIABILITY_EXPLAINED}</p>
        <ul className="detalisation" data-testid="detalisation">
          {groups.map((group, index) => (
            <li key={group.id} className="detalisation__row">
              <span className="detalisation__label">{group.label}</span>
              <span>{t('webapp.myEthnicity.detail.share', { share: group.share })}</span>
              <span className="hint">{group.uncertainty}</span>
              <span className="detalisation__bar" aria-hidden="true">
                {/* The ring's colour for this group, as the PDF's bars (one palette, ADR 148). */}
                <span style={{ width: `${group.share}%`, background: heritageColour(index) }} />
              </span>
            </li>
          ))}
        </ul>
        <p className="hint">{heritage.disclaimer}</p>
        <p className="hint">{t('webapp.myEthnicity.conclusion.model', { version: result.modelVersion })}</p>
      </section>

      <section aria-label={t('webapp.myEthnicity.feedback.question')} className="report-section">
        <FeedbackQuestion
          target={target}
          onAnswered={(looksCorrect) => openSubPage('feedback', { correct: looksCorrect ? 'yes' : 'no' })}
        />
      </section>

      {result.traits.length > 0 && (
        <section aria-labelledby="traits-title" className="report-section">
          <h2 id="traits-title">{t('webapp.myEthnicity.traits.title')}</h2>
          <p className="hint">{t('webapp.myEthnicity.traits.intro')}</p>
          <FacialTraits traits={result.traits} />
        </section>
      )}

      {report.kind === 'extended' && (
        <section aria-labelledby="cultural-title" className="report-section">
          <h2 id="cultural-title">{t('webapp.myEthnicity.cultural.title')}</h2>
          <CulturalInsights groups={result.insightGroups} />
        </section>
      )}

      <nav aria-label={t('webapp.horoscope.title')} className="report-actions">
        <button type="button" className="button button--secondary" onClick={() => openSubPage('horoscope')}>
          {t('webapp.myEthnicity.horoscopeLink')}
        </button>
        <Link className="button button--primary" to={`${productPath(slug, ROUTE_PATHS.webapp)}?section=biorhythm`}>
          {t('webapp.myEthnicity.future')}
        </Link>
      </nav>
    </>
  );
}

/**
 * My Ethnicity (product-spec §2, `/{slug}/webapp/myethnicity/{reportId}`): one report of the
 * signed-in user, read with the session (ADR 075). A report still being made is polled. The
 * horoscope and the feedback screen are sub-pages in the query string.
 */
export function MyEthnicityScreen() {
  const { t } = useTranslation();
  const { slug } = usePublicConfig();
  const { reportId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const me = useSignedIn();
  const report = useResource(me ? reportId : null, (signal) => getReport(reportId, signal));
  const subPage = subPageOf(params.get('view'));
  const heading = useRef<HTMLHeadingElement>(null);

  const polling = report.status === 'ready' && !isFinalReportStatus(report.data.status) ? report.data : null;
  // Stage events (product-spec §3): 'report ready' when a report this screen watched being made
  // completes, 'results' each time a completed report's results are shown.
  const sawPending = useRef(false);
  const completedId = report.status === 'ready' && report.data.status === 'completed' ? report.data.report_id : null;
  useEffect(() => {
    if (polling) sawPending.current = true;
  }, [polling]);
  useEffect(() => {
    if (!completedId) return;
    if (sawPending.current) track(slug, 'report ready');
    sawPending.current = false;
    track(slug, 'results');
  }, [completedId, slug]);
  useEffect(() => {
    if (!polling) return;
    const timer = setTimeout(report.reload, REPORT_POLL_INTERVAL_MS);
    return () => clearTimeout(timer);
  }, [polling, report.reload]);

  // A sub-page is a new view: move focus to its heading, as a page change would.
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    heading.current?.focus();
  }, [subPage]);

  const openSubPage = (view: SubPage, extra: Record<string, string> = {}) => setParams(view === 'report' ? {} : { view, ...extra });
  const reportPath = productPath(slug, ROUTE_PATHS.myEthnicity.replace(':reportId', reportId));
  const title =
    subPage === 'horoscope'
      ? t('webapp.horoscope.title')
      : subPage === 'feedback'
        ? t('webapp.myEthnicity.feedback.title')
        : t('screens.titles.myEthnicity');

  let body: ReactNode;
  if (!me || report.status === 'loading') {
    body = <p role="status">{t('webapp.myEthnicity.loading')}</p>;
  } else if (report.status === 'error') {
    body = isNotFound(report.error) ? (
      <div data-testid="report-not-found">
        <p>{t('webapp.myEthnicity.notFound')}</p>
        <Link to={productPath(slug, ROUTE_PATHS.reports)}>{t('webapp.myEthnicity.toReports')}</Link>
      </div>
    ) : (
      <LoadFailed error={report.error} onRetry={report.reload} />
    );
  } else if (subPage === 'horoscope') {
    body = <HoroscopeView slug={slug} />;
  } else {
    const { data } = report;
    const target: FeedbackTarget = { reportId: data.report_id, subscriptionId: data.subscription_id, userId: me.user.uid };
    if (data.status === 'completed' && data.result) {
      body =
        subPage === 'feedback' ? (
          <FeedbackView target={target} looksCorrect={params.get('correct') !== 'no'} />
        ) : (
          <ReportSections report={data} result={data.result} target={target} slug={slug} openSubPage={openSubPage} />
        );
    } else if (data.status === 'failed' || data.status === 'expired') {
      // A report that could not be made: a new selfie while the purchases include reports (ADR 145).
      body = (
        <>
          <p role="alert">
            {data.status === 'failed'
              ? t('webapp.myEthnicity.failed', { message: data.error?.message ?? FALLBACK_ERROR })
              : t('webapp.myEthnicity.expired')}
          </p>
          {includesReports(me.access) && <TakeSelfieLink slug={slug} reason="retake" />}
        </>
      );
    } else {
      body = (
        <p role="status" data-testid="report-pending">
          {t('webapp.myEthnicity.pending')}
        </p>
      );
    }
  }

  return (
    <main className="screen my-ethnicity" data-testid="my-ethnicity-screen">
      <h1 className="screen__title" ref={heading} tabIndex={-1}>
        {title}
      </h1>
      {subPage !== 'report' && (
        <Link to={reportPath} className="my-ethnicity__back">
          {t('webapp.myEthnicity.backToReport')}
        </Link>
      )}
      {body}
      <Link to={productPath(slug, ROUTE_PATHS.webapp)} className="my-ethnicity__home">
        {t('webapp.myEthnicity.toHome')}
      </Link>
    </main>
  );
}
