import type { ProfileResponse } from '@roots/contracts/account';
import { topEstimateSentence } from '@roots/contracts/heritage-wording';
import type { ReportSummary } from '@roots/contracts/reports';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Loaded } from '../../components/ui/loaded';
import { TakeSelfieLink } from '../../components/selfie/take-selfie-link';
import { PopulationFigures } from '../../components/ui/population-figures';
import { productPath, ROUTE_PATHS } from '../../lib/paths';
import { useResource } from '../../lib/use-resource';
import { getHoroscope } from '../../lib/webapp-api';
import { getBiorhythm, getInsightGroups, getPopulation } from './api/get-insights';

// Recharts (ADR 076) loads only when the biorhythm section is shown: its own chunk.
const BiorhythmChart = lazy(() => import('./biorhythm-chart'));

/** The path of one report's My Ethnicity screen (with an optional sub-page). */
export const myEthnicityPath = (slug: string, reportId: string, view?: string) =>
  `${productPath(slug, ROUTE_PATHS.myEthnicity.replace(':reportId', reportId))}${view ? `?view=${view}` : ''}`;

/** Asks for a birth date in the profile, for the sections computed from it. */
function NeedsBirthDate({ slug }: { slug: string }) {
  const { t } = useTranslation();
  return (
    <div className="notice">
      <p>{t('webapp.home.needBirthDate')}</p>
      <Link to={productPath(slug, ROUTE_PATHS.profile)}>{t('webapp.home.toProfile')}</Link>
    </div>
  );
}

/**
 * My Ethnicity: the latest report with its top estimate, a link to it and to the history; 'Take a
 * selfie' while a report is owed and missing (`owed`: none, or only failed and expired ones; ADR 145).
 */
export function MyEthnicitySection({ reports, owed, slug }: { reports: readonly ReportSummary[]; owed: boolean; slug: string }) {
  const { t } = useTranslation();
  const latest = reports.find((report) => report.status === 'completed') ?? reports[0];
  const takeSelfie = owed && <TakeSelfieLink slug={slug} reason={latest ? 'retake' : 'owed'} />;
  if (!latest) {
    return (
      <>
        <p>{t('webapp.home.myEthnicity.none')}</p>
        {takeSelfie}
      </>
    );
  }
  const date = new Date(latest.created_at).toLocaleDateString('en-US', { dateStyle: 'medium' });
  return (
    <div className="home-section">
      {takeSelfie}
      <p>{t('webapp.home.myEthnicity.latest', { date })}</p>
      {latest.top_estimate ? (
        <p className="home-section__lead">{topEstimateSentence(latest.top_estimate)}</p>
      ) : (
        <p>{t('webapp.home.myEthnicity.notReady', { status: t(`webapp.reports.statuses.${latest.status}`) })}</p>
      )}
      <Link className="button button--primary" to={myEthnicityPath(slug, latest.report_id)}>
        {t('webapp.home.myEthnicity.open')}
      </Link>
      <Link to={productPath(slug, ROUTE_PATHS.reports)}>{t('webapp.home.myEthnicity.history')}</Link>
    </div>
  );
}

/** Biorhythm: the chart of the next days from the profile's birth date. */
export function BiorhythmSection({ birthDate, slug }: { birthDate: string | null; slug: string }) {
  const { t } = useTranslation();
  const chart = useResource(birthDate, (signal) => getBiorhythm(birthDate ?? '', signal));
  if (!birthDate) return <NeedsBirthDate slug={slug} />;
  return (
    <Loaded resource={chart}>
      {(data) => (
        <>
          <p>{t('webapp.biorhythm.title', { days: data.days.length })}</p>
          <Suspense fallback={<p role="status">{t('webapp.loading')}</p>}>
            <BiorhythmChart chart={data} />
          </Suspense>
        </>
      )}
    </Loaded>
  );
}

/** Daily Horoscope: today's sign and mood, and the full reading in the latest report's horoscope sub-page. */
export function HoroscopeSection({ profile, reportId, slug }: { profile: ProfileResponse; reportId: string | null; slug: string }) {
  const { t } = useTranslation();
  const birthDate = profile.birth_date;
  const reading = useResource(birthDate, (signal) => getHoroscope(birthDate ?? '', profile.birth_time, signal));
  if (!birthDate) return <NeedsBirthDate slug={slug} />;
  return (
    <Loaded resource={reading}>
      {({ horoscope }) => (
        <div className="home-section" data-testid="home-horoscope">
          <p className="home-section__lead">
            {t('webapp.home.horoscope.summary', { sign: t(`webapp.horoscope.signs.${horoscope.sign}`), date: horoscope.date })}
          </p>
          <p>{horoscope.mood}</p>
          {reportId ? (
            <Link className="button button--secondary" to={myEthnicityPath(slug, reportId, 'horoscope')}>
              {t('webapp.home.horoscope.open')}
            </Link>
          ) : (
            <p className="hint">{t('webapp.home.horoscope.noReport')}</p>
          )}
          <p className="hint">{horoscope.disclaimer}</p>
        </div>
      )}
    </Loaded>
  );
}

/** Population: where people of the report's groups live, by world region and largest countries, with the source. */
export function PopulationSection({ reportId }: { reportId: string | null }) {
  const { t } = useTranslation();
  const population = useResource(reportId, async (signal) => {
    const groups = await getInsightGroups(reportId ?? '', signal);
    return {
      groups,
      insights: await getPopulation(
        groups.map((group) => group.id),
        signal,
      ),
    };
  });
  if (!reportId) return <p>{t('webapp.home.population.none')}</p>;
  return (
    <Loaded resource={population}>
      {({ groups, insights }) => (
        <div className="home-section" data-testid="home-population">
          <p>{t('webapp.home.population.intro', { year: insights.groups[0]?.regions[0]?.year ?? '' })}</p>
          {insights.groups.map((group) => (
            <article key={group.id} className="population-group">
              <h3>{groups.find((item) => item.id === group.id)?.label ?? group.id}</h3>
              <PopulationFigures group={group} headingLevel={4} />
            </article>
          ))}
          <p className="hint">
            <a href={insights.source.url} target="_blank" rel="noreferrer">
              {t('webapp.home.population.source', { name: insights.source.name, licence: insights.source.licence })}
            </a>
          </p>
        </div>
      )}
    </Loaded>
  );
}
