import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { productPath, ROUTE_PATHS } from '../../lib/paths';
import { usePublicConfig } from '../../lib/public-config-context';
import { CardUpdateForm } from '../../components/card-update/card-update-form';
import { updateCardByLink } from './api/update-card-by-link';

/**
 * `/{slug}/update-card/:token`: the page the payment-failed email links to (issue 23). The signed
 * link proves the subscription is the reader's; opening the page changes nothing (the checkout is
 * asked for by the page, with a POST, once it runs in a browser).
 */
export function UpdateCardScreen() {
  const { t } = useTranslation();
  const { slug } = usePublicConfig();
  const { token = '' } = useParams();
  const api = useMemo(() => updateCardByLink(token), [token]);
  return (
    <main className="screen" data-testid="update-card-screen">
      <h1 className="screen__title">{t('screens.titles.updateCard')}</h1>
      <CardUpdateForm api={api} resourceKey={token} />
      <p className="hint">
        <Link to={productPath(slug, ROUTE_PATHS.manageSubscriptions)}>{t('account.updateCard.signIn')}</Link>
      </p>
    </main>
  );
}
