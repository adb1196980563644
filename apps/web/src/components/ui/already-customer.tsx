import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { productPath, ROUTE_PATHS } from '../../lib/paths';
import { usePublicConfig } from '../../lib/public-config-context';

/**
 * "Already a customer? Sign in": a returning customer signs in before buying what they own (issue 35).
 * It says nothing about whether any email is a customer's; signing in proves it.
 */
export function AlreadyCustomer() {
  const { t } = useTranslation();
  const { slug } = usePublicConfig();
  return (
    <p className="already-customer" data-testid="already-customer">
      {t('screens.landing.alreadyCustomer')} <Link to={productPath(slug, ROUTE_PATHS.signIn)}>{t('screens.landing.signIn')}</Link>
    </p>
  );
}
