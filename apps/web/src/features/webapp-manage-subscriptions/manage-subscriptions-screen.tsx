import type { MySubscriptionsResponse } from '@roots/contracts/account';
import type { CancelOutcome, SubscriptionSummary } from '@roots/contracts/subscriptions';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isSignedOutError, useSignedIn, useSignOutToSignIn } from '../../lib/auth-guard';
import { errorFromResponse, FALLBACK_ERROR, postJson, RequestError } from '../../lib/http';

const CANCELABLE = new Set(['trialing', 'active', 'past_due']);

async function loadSubscriptions(): Promise<SubscriptionSummary[]> {
  const response = await fetch('/api/account/subscriptions');
  if (!response.ok) throw await errorFromResponse(response);
  return ((await response.json()) as MySubscriptionsResponse).subscriptions;
}

/** Manage subscriptions: status, next charge, cancel in two clicks (Cancel → Confirm). */
export function ManageSubscriptionsScreen() {
  const { t } = useTranslation();
  const me = useSignedIn();
  const toSignIn = useSignOutToSignIn();
  const [items, setItems] = useState<SubscriptionSummary[] | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);

  // The server's 401 (session ended, user disabled) signs out; other failures are shown.
  const failed = useCallback(
    (reason: unknown) => {
      if (isSignedOutError(reason)) void toSignIn();
      else setMessage(reason instanceof RequestError ? reason.message : FALLBACK_ERROR);
    },
    [toSignIn],
  );

  useEffect(() => {
    if (!me) return;
    let active = true;
    void loadSubscriptions().then(
      (answer) => {
        if (active) setItems(answer);
      },
      (reason: unknown) => {
        if (active) failed(reason);
      },
    );
    return () => {
      active = false;
    };
  }, [me, failed]);

  const cancel = async (id: string) => {
    try {
      const outcome = await postJson<CancelOutcome>(`/api/account/subscriptions/${id}/cancel`, {});
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
            <h2>{item.plan_id}</h2>
            <p>
              {t('webapp.subscriptions.status')}: <span data-testid="subscription-status">{item.status}</span>
            </p>
            <p>
              {t('webapp.subscriptions.nextCharge')}:{' '}
              {item.next_charge_at
                ? `${new Date(item.next_charge_at).toLocaleDateString('en-US')} — $${item.next_charge_amount ?? ''}`
                : t('webapp.subscriptions.noNextCharge')}
            </p>
            {CANCELABLE.has(item.status) && confirming !== item.id && (
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
