import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { productPath, ROUTE_PATHS } from '../../lib/paths';
import { useResource } from '../../lib/use-resource';
import { loadSubscriptions } from './api/load-subscriptions';

/**
 * Webapp main's banner while a renewal is failing (issue 35: nothing said so): which plan, and
 * "Update card", which opens that subscription's card form (ADR 143) on Manage subscriptions.
 */
export function PastDueNotice({ uid, slug }: { uid: string; slug: string }) {
  const { t } = useTranslation();
  const subscriptions = useResource(uid, (signal) => loadSubscriptions(signal));
  if (subscriptions.status !== 'ready') return null;
  return (
    <>
      {subscriptions.data
        .filter((item) => item.status === 'past_due')
        .map((item) => (
          <section key={item.id} className="banner banner--warning" role="alert" data-testid="past-due-banner">
            <p>{t('webapp.subscriptions.pastDue', { plan: item.agreed?.name ?? item.plan_id })}</p>
            <Link className="button button--primary" to={`${productPath(slug, ROUTE_PATHS.manageSubscriptions)}?update=${item.id}`}>
              {t('webapp.subscriptions.updateCard')}
            </Link>
          </section>
        ))}
    </>
  );
}
