import type { AccessKind } from '@roots/contracts/subscriptions';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Loaded } from '../../components/ui/loaded';
import { useSignedIn } from '../../lib/auth-guard';
import { signOut } from '../../lib/auth-session';
import { errorMessage } from '../../lib/api-client';
import { deleteMyData as deleteAccount } from './api/delete-my-data';
import { productPath, ROUTE_PATHS } from '../../lib/paths';
import { usePublicConfig } from '../../lib/public-config-context';
import { reportOwed } from '../../lib/report-rights';
import { useResource } from '../../lib/use-resource';
import { getHomeData, type HomeData } from './api/get-home-data';
import { BiorhythmSection, HoroscopeSection, MyEthnicitySection, PopulationSection } from './home-sections';
import { PastDueNotice } from './past-due-notice';
import { SectionCarousel, type CarouselSection } from './section-carousel';
import './webapp-home.css';

/** The carousel's sections in ring order (product-spec §2). */
export const HOME_SECTIONS = ['myEthnicity', 'biorhythm', 'horoscope', 'population'] as const;
type HomeSectionId = (typeof HOME_SECTIONS)[number];

const isHomeSection = (value: string | null): value is HomeSectionId => HOME_SECTIONS.some((id) => id === value);

/** The four sections, built from the profile, the user's reports and what their purchases include. */
function useSections(data: HomeData, access: readonly AccessKind[], slug: string): CarouselSection[] {
  const { t } = useTranslation();
  const latestCompleted = data.reports.find((report) => report.status === 'completed')?.report_id ?? null;
  const panels: Record<HomeSectionId, CarouselSection['panel']> = {
    myEthnicity: <MyEthnicitySection reports={data.reports} owed={reportOwed(access, data.reports)} slug={slug} />,
    biorhythm: <BiorhythmSection birthDate={data.profile.birth_date} slug={slug} />,
    horoscope: <HoroscopeSection profile={data.profile} reportId={latestCompleted} slug={slug} />,
    population: <PopulationSection reportId={latestCompleted} />,
  };
  return HOME_SECTIONS.map((id) => ({ id, title: t(`webapp.home.sectionNames.${id}`), panel: panels[id] }));
}

/** The carousel once the profile and reports are in. */
function HomeCarousel({ data, access, slug }: { data: HomeData; access: readonly AccessKind[]; slug: string }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const sections = useSections(data, access, slug);
  const requested = params.get('section');
  const selected: HomeSectionId = isHomeSection(requested) ? requested : 'myEthnicity';
  const select = (id: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('section', id);
        return next;
      },
      { replace: true },
    );
  return <SectionCarousel sections={sections} selectedId={selected} onSelect={select} label={t('webapp.home.carouselLabel')} />;
}

/**
 * Webapp main (product-spec §2): the carousel of My Ethnicity, Biorhythm, Daily Horoscope and
 * Population (`?section=` keeps the selected one, so other screens can open a section), the
 * account links, sign-out and 'Delete my data'.
 */
export function WebappHomeScreen() {
  const { t } = useTranslation();
  const { slug } = usePublicConfig();
  const navigate = useNavigate();
  const me = useSignedIn();
  const home = useResource(me ? me.user.uid : null, (signal) => getHomeData(signal));
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [deleted, setDeleted] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const deleteMyData = async () => {
    try {
      await deleteAccount();
    } catch (reason) {
      setError(errorMessage(reason));
      return;
    }
    setDeleted(true);
  };

  // After 'Delete everything' the page says it was done (issue 24: it went to the start silently).
  if (deleted) {
    return (
      <main className="screen webapp-home" data-testid="account-deleted">
        <h1 className="screen__title">{t('webapp.home.deletedTitle')}</h1>
        <p role="status">{t('webapp.home.deletedText')}</p>
        <Link className="button button--primary" to={productPath(slug, '')}>
          {t('screens.notFound.backHome')}
        </Link>
      </main>
    );
  }

  return (
    <main className="screen webapp-home" data-testid="webapp-home-screen">
      <h1 className="screen__title">{t('screens.titles.webappHome')}</h1>
      {me && (
        <>
          <p>{t('webapp.home.signedInAs', { email: me.user.email })}</p>
          <PastDueNotice uid={me.user.uid} slug={slug} />
          <Loaded resource={home}>{(data) => <HomeCarousel data={data} access={me.access} slug={slug} />}</Loaded>
          <nav aria-label={t('webapp.home.account')} className="webapp-home__account">
            <ul>
              <li>
                <Link to={productPath(slug, ROUTE_PATHS.profile)}>{t('screens.titles.profile')}</Link>
              </li>
              <li>
                <Link to={productPath(slug, ROUTE_PATHS.reports)}>{t('screens.titles.reports')}</Link>
              </li>
              <li>
                <Link to={productPath(slug, ROUTE_PATHS.manageSubscriptions)}>{t('screens.titles.manageSubscriptions')}</Link>
              </li>
            </ul>
          </nav>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => void signOut().then(() => navigate(productPath(slug, ROUTE_PATHS.signIn)))}
          >
            {t('webapp.home.signOut')}
          </button>
          {!confirmDelete ? (
            <button type="button" className="button button--secondary" onClick={() => setConfirmDelete(true)}>
              {t('webapp.home.deleteMyData')}
            </button>
          ) : (
            <div role="group" aria-label={t('webapp.home.deleteConfirm')}>
              <p>{t('webapp.home.deleteConfirm')}</p>
              <button type="button" className="button button--primary" onClick={() => void deleteMyData()}>
                {t('webapp.home.deleteYes')}
              </button>
              <button type="button" className="button button--secondary" onClick={() => setConfirmDelete(false)}>
                {t('webapp.home.deleteNo')}
              </button>
            </div>
          )}
          {error && <p role="alert">{error}</p>}
        </>
      )}
    </main>
  );
}
