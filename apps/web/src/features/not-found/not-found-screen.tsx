import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { usePublicConfig } from '../../lib/public-config-context';

/** Any path outside the route table: '404', 'Page Not Found' and a way back. */
export function NotFoundScreen() {
  const { slug } = usePublicConfig();
  const { t } = useTranslation();
  return (
    <main className="screen not-found" data-testid="not-found-screen">
      <p className="not-found__code" aria-hidden="true">
        {t('messages.notFoundTitle')}
      </p>
      <h1 className="screen__title">
        <span className="visually-hidden">{t('messages.notFoundTitle')} </span>
        {t('messages.notFoundHeading')}
      </h1>
      <p>{t('messages.notFoundDescription')}</p>
      <Link className="button button--primary" to={`/${slug}/`}>
        {t('screens.notFound.backHome')}
      </Link>
    </main>
  );
}
