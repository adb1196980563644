import { cancelMineResponseSchema, mySubscriptionsResponseSchema } from '@roots/contracts/account';
import type { PlanCatalog } from '@roots/contracts';
import { formatUsd } from '@roots/contracts/disclosure';
import { planAccountSummary } from '@roots/contracts/plan-claims';
import { isCancelable, type SubscriptionSummary } from '@roots/contracts/subscriptions';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRequestFailure, useSignedIn } from '../../lib/auth-guard';
import { getJson, getPlans, postParsed } from '../../lib/api-client';

/** GET /api/account/subscriptions: the signed-in user's subscriptions. */
async function loadSubscriptions(signal?: AbortSignal): Promise<SubscriptionSummary[]> {
  return (await getJson('/api/account/subscriptions', mySubscriptionsResponseSchema, signal)).subscriptions;
}

/** The plan summary of a purchase (product-spec §3): name, then price and period. */
function PlanHeading({ catalog, planId }: { catalog: PlanCatalog | null; planId: string }) {
  const summary = catalog ? planAccountSummary(catalog, planId) : null;
  if (!summary) return <h2 data-testid="subscription-plan">{catalog ? planId : '…'}</h2>;
  return (
    <>
      <h2 data-testid="subscription-plan">{summary.name}</h2>
      <p data-testid="subscription-price">
        {formatUsd(summary.price)} {summary.period}
      </p>
    </>
  );
}

/**
 * Manage subscriptions: status, next charge, cancel in two clicks (Cancel → Confirm). Only a plan
 * that renews has a cancel; a one-time pack says it renews never (issue 23).
 */
export function ManageSubscriptionsScreen() {
  const { t } = useTranslation();
  const me = useSignedIn();
  const [items, setItems] = useState<SubscriptionSummary[] | null>(null);
  const [catalog, setCatalog] = useState<PlanCatalog | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const failed = useRequestFailure(setMessage);

  useEffect(() => {
    if (!me) return;
    const controller = new AbortController();
    loadSubscriptions(controller.signal).then(
      (answer) => !controller.signal.aborted && setItems(answer),
      (reason: unknown) => !controller.signal.aborted && failed(reason),
    );
    return () => controller.abort();
  }, [me, failed]);

  useEffect(() => {
    const controller = new AbortController();
    // Without the catalog the plan summary is missing, not wrong: the list still shows.
    getPlans(controller.signal).then(setCatalog, () => undefined);
    return () => controller.abort();
  }, []);

  const cancel = async (id: string) => {
    try {
      const outcome = await postParsed(`/api/account/subscriptions/${id}/cancel`, {}, cancelMineResponseSchema);
      setMessage(outcome.message);
      setConfirming(null);
      setItems(await loadSubscriptions());
    } catch (reason) {
      failed(reason);
    }
  };

  return (
    <main className="screen manage-subscriptions" data-testid="manage-subscriptions-screen">
      <h1 className="screen__title">{t('screens.titles.manageSubscriptions')}</h1>
      {message && <p role="status">{message}</p>}
      {items?.length === 0 && <p>{t('webapp.subscriptions.none')}</p>}
      <ul className="subscription-list">
        {items?.map((item) => (
          <li key={item.id} data-testid="subscription-item">
            <PlanHeading catalog={catalog} planId={item.plan_id} />
            <p>
              {t('webapp.subscriptions.status')}: <span data-testid="subscription-status">{item.status}</span>
            </p>
            <p>
              {t('webapp.subscriptions.nextCharge')}:{' '}
              {item.next_charge_at
                ? `${new Date(item.next_charge_at).toLocaleDateString('en-US')} — $${item.next_charge_amount ?? ''}`
                : t('webapp.subscriptions.noNextCharge')}
            </p>
            {!item.renews && <p data-testid="one-time-note">{t('webapp.subscriptions.oneTime')}</p>}
            {item.renews && isCancelable(item.status) && confirming !== item.id && (
              <button type="button" className="button button--secondary" onClick={() => setConfirming(item.id)}>
                {t('webapp.subscriptions.cancel')}
              </button>
            )}
            {confirming === item.id && (
              <div role="group" aria-label={t('webapp.subscriptions.confirmTitle')}>
                <p>{t('webapp.subscriptions.confirmTitle')}</p>
                <button type="button" className="button" onClick={() => void cancel(item.id)}>
                  {t('webapp.subscriptions.confirm')}
                </button>
                <button type="button" className="button button--secondary" onClick={() => setConfirming(null)}>
                  {t('webapp.subscriptions.keep')}
                </button>
              </div>
            )}
          </li>
        ))}
      </ul>
    </main>
  );
}
