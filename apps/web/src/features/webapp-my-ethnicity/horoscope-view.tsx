import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FALLBACK_ERROR, RequestError } from '../../lib/http';
import { productPath, ROUTE_PATHS } from '../../lib/paths';
import { getProfileHoroscope } from './api/get-horoscope';
import { useResource } from '../../lib/use-resource';

/**
 * The horoscope sub-page of My Ethnicity: today's reading for the sun sign of the profile's birth
 * date (computed on the server from the date and, when known, the time). Without a birth date it
 * links to the profile.
 */
export function HoroscopeView({ slug }: { slug: string }) {
  const { t } = useTranslation();
  const horoscope = useResource('today', (signal) => getProfileHoroscope(signal));
  if (horoscope.status === 'loading') return <p role="status">{t('webapp.horoscope.loading')}</p>;
  if (horoscope.status === 'error') {
    return (
      <div role="alert">
        <p>{horoscope.error instanceof RequestError ? horoscope.error.message : FALLBACK_ERROR}</p>
        <button type="button" className="button button--secondary" onClick={horoscope.reload}>
          {t('webapp.retry')}
        </button>
      </div>
    );
  }
  if (horoscope.data.kind === 'needsBirthDate') {
    return (
      <div className="notice" data-testid="horoscope-needs-birth-date">
        <p>{t('webapp.horoscope.needBirthDate')}</p>
        <Link to={productPath(slug, ROUTE_PATHS.profile)}>{t('webapp.horoscope.toProfile')}</Link>
      </div>
    );
  }
  const { sunSign, horoscope: reading } = horoscope.data.reading;
  const signName = t(`webapp.horoscope.signs.${reading.sign}`);
  return (
    <article className="horoscope" data-testid="horoscope-reading">
      <p className="horoscope__sign">{t('webapp.horoscope.sign', { sign: signName })}</p>
      {sunSign?.onCusp && <p className="hint">{t('webapp.horoscope.onCusp')}</p>}
      <p className="hint">{t('webapp.horoscope.date', { date: reading.date })}</p>
      <dl className="horoscope__reading">
        <dt>{t('webapp.horoscope.mood')}</dt>
        <dd>{reading.mood}</dd>
        <dt>{t('webapp.horoscope.love')}</dt>
        <dd>{reading.love}</dd>
        <dt>{t('webapp.horoscope.work')}</dt>
        <dd>{reading.work}</dd>
        <dt>{t('webapp.horoscope.wellbeing')}</dt>
        <dd>{reading.wellbeing}</dd>
      </dl>
      <p>{t('webapp.horoscope.lucky', { number: reading.luckyNumber, colour: reading.luckyColour })}</p>
      <p>
        {t('webapp.horoscope.moon', {
          sign: t(`webapp.horoscope.signs.${reading.moon.sign}`),
          phase: t(`webapp.horoscope.phases.${reading.moon.phase}`),
          percent: reading.moon.illuminatedPercent,
        })}
      </p>
      <p className="hint">{reading.disclaimer}</p>
    </article>
  );
}
