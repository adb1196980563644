import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useSignedIn } from '../../lib/auth-guard';
import { signOut } from '../../lib/auth-session';
import { FALLBACK_ERROR } from '../../lib/http';
import { productPath, ROUTE_PATHS } from '../../lib/paths';
import { usePublicConfig } from '../../lib/public-config-context';

/** Webapp main: the signed-in area's entry with its sections, sign-out and 'Delete my data'. */
export function WebappHomeScreen() {
  const { t } = useTranslation();
  const { slug } = usePublicConfig();
  const navigate = useNavigate();
  const me = useSignedIn();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const deleteMyData = async () => {
    const response = await fetch('/api/account', { method: 'DELETE' });
    if (!response.ok) {
      setError(FALLBACK_ERROR);
      return;
    }
    await navigate(productPath(slug, ''));
  };

  return (
    <main className="screen webapp-home" data-testid="webapp-home-screen">
      <h1 className="screen__title">{t('screens.titles.webappHome')}</h1>
      {me && (
        <>
          <p>{t('webapp.home.signedInAs', { email: me.user.email })}</p>
          <nav aria-label={t('webapp.home.sections')}>
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
              <button type="button" className="button" onClick={() => void deleteMyData()}>
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
