import type { HoroscopeResponse } from '@roots/contracts/insights';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Loaded } from '../../components/ui/loaded';
import { productPath, ROUTE_PATHS } from '../../lib/paths';
import { useResource } from '../../lib/use-resource';
import { getProfileHoroscope } from './api/get-horoscope';

/**
 * The horoscope sub-page of My Ethnicity: today's reading for the sun sign of the profile's birth
 * date (computed on the server from the date and, when known, the time). Without a birth date it
 * links to the profile.
 */
export function HoroscopeView({ slug }: { slug: string }) {
  const { t } = useTranslation();
  const horoscope = useResource('today', (signal) => getProfileHoroscope(signal));
  return (
    <Loaded resource={horoscope} loading={t('webapp.horoscope.loading')}>
      {(data) =>
        data.kind === 'needsBirthDate' ? (
          <div className="notice" data-testid="horoscope-needs-birth-date">
            <p>{t('webapp.horoscope.needBirthDate')}</p>
            <Link to={productPath(slug, ROUTE_PATHS.profile)}>{t('webapp.horoscope.toProfile')}</Link>
          </div>
        ) : (
          <Reading answer={data.reading} />
        )
      }
    </Loaded>
  );
}

/** Today's reading: sign, mood, love, work, wellbeing, lucky number and colour, the moon. */
function Reading({ answer }: { answer: HoroscopeResponse }) {
  const { t } = useTranslation();
  const { sunSign, horoscope: reading } = answer;
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
