import { ACCESS_GIVES, ACCESS_KINDS } from '@roots/contracts/access';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { Screen } from '../../components/ui/screen';
import { productPath, ROUTE_PATHS } from '../../lib/paths';
import { usePublicConfig } from '../../lib/public-config-context';
import { readSessionValue } from '../../lib/session-keys';

/**
 * `/{slug}/access-product`: what a purchase gives and how to get in — sign in with the email used
 * to pay (a code by email, or a Google-type or Apple-type account with that email), or recover
 * access when that email is lost.
 */
export function AccessProductScreen() {
  const { t } = useTranslation();
  const { slug, productName } = usePublicConfig();
  const { search } = useLocation();
  const email = readSessionValue('userEmail');
  return (
    <Screen title={t('screens.titles.accessProduct', { product: productName })} testId="access-product-screen">
      {email && <p data-testid="purchase-email">{t('screens.accessProduct.purchasedWith', { email })}</p>}
      <h2>{t('screens.accessProduct.whatYouGet')}</h2>
      <ul>
        {/* Each kind of purchase with what it gives: the paywall's and the offers' own line (ADR 194). */}
        {ACCESS_KINDS.map((kind) => (
          <li key={kind}>
            {t(`screens.accessProduct.access.${kind}`)}: {ACCESS_GIVES[kind]}
          </li>
        ))}
      </ul>
      <h2>{t('screens.accessProduct.howToSignIn')}</h2>
      <ol>
        <li>{t('screens.accessProduct.steps.email')}</li>
        <li>{t('screens.accessProduct.steps.code')}</li>
        <li>{t('screens.accessProduct.steps.providers')}</li>
      </ol>
      <Link className="button button--primary" to={`${productPath(slug, ROUTE_PATHS.signIn)}${search}`}>
        {t('screens.accessProduct.signIn')}
      </Link>
      <p>
        {t('screens.accessProduct.lost')}{' '}
        <Link to={productPath(slug, ROUTE_PATHS.accessRecovery)}>{t('screens.accessProduct.recover')}</Link>
      </p>
    </Screen>
  );
}
