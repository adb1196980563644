import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { productPath, ROUTE_PATHS } from '../../lib/paths';
import { usePublicConfig } from '../../lib/public-config-context';
import { SiteFooter } from '../../components/ui/site-footer';

/** Main landing (`/{slug}/*`): what Roots is, the honest claims, and the way in. */
export function LandingScreen() {
  const { slug, copy, productName } = usePublicConfig();
  const { t } = useTranslation();
  return (
    <>
      <main className="screen landing" data-testid="landing-screen">
        <p className="landing__brand">{productName}</p>
        <h1 className="screen__title">{copy.headline}</h1>
        <img className="landing__art" src="images/walkthrough-1.svg" alt="" width={160} height={160} />
        <p className="landing__discount">{copy.discountClaim}</p>
        <ul className="landing__claims">
          <li>{copy.privacyClaim}</li>
          <li>{copy.biometricClaim}</li>
          <li>{t('screens.landing.honesty')}</li>
        </ul>
        <p className="landing__users">
          <strong>{copy.usersClaim}</strong> {t('screens.landing.usersLabel')}
        </p>
        <Link className="button button--primary" to={productPath(slug, ROUTE_PATHS.subscription)}>
          {t('screens.landing.cta')}
        </Link>
      </main>
      <SiteFooter />
    </>
  );
}
