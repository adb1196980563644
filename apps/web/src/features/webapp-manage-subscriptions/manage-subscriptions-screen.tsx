import type { PlanCatalog } from '@roots/contracts';
import { formatUsd } from '@roots/contracts/disclosure';
import { planAccountSummary } from '@roots/contracts/plan-claims';
import { agreedPriceLine, everyPeriod, statusWords } from '@roots/contracts/subscription-words';
import { isCancelable, type SubscriptionSummary } from '@roots/contracts/subscriptions';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useRequestFailure, useSignedIn } from '../../lib/auth-guard';
import { getPlans } from '../../lib/api-client';
import { longDate } from '../../lib/format-date';
import { productPath, ROUTE_PATHS } from '../../lib/paths';
import { usePublicConfig } from '../../lib/public-config-context';
import { cancelSubscription, changePlan, keepPlan, loadSubscriptions, updateCardOf } from './api/subscriptions';

// The checkout SDK loads only when a customer asks to update a card.
const CardUpdateForm = lazy(async () => ({ default: (await import('../../components/card-update/card-update-form')).CardUpdateForm }));

/** The signed-in owner's card update of one subscription (the session proves ownership). */
function CardUpdate({ subscriptionId, onSaved }: { subscriptionId: string; onSaved: () => void }) {
  const { t } = useTranslation();
  const api = useMemo(() => updateCardOf(subscriptionId, onSaved), [subscriptionId, onSaved]);
  return (
    <Suspense fallback={<p role="status">{t('webapp.loading')}</p>}>
      <CardUpdateForm api={api} resourceKey={subscriptionId} />
    </Suspense>
  );
}

/**
 * The plan summary of a purchase (product-spec §3): name, then price and period as the buyer agreed
 * to them (issue 35: never the catalog's price of today); the catalog only for a purchase without
 * a record of its terms.
 */
function PlanHeading({ catalog, item }: { catalog: PlanCatalog | null; item: SubscriptionSummary }) {
  if (item.agreed) {
    return (
      <>
        <h2 data-testid="subscription-plan">{item.agreed.name}</h2>
        <p data-testid="subscription-price">{agreedPriceLine(item.agreed)}</p>
      </>
    );
  }
  const summary = catalog ? planAccountSummary(catalog, item.plan_id) : null;
  if (!summary) return <h2 data-testid="subscription-plan">{catalog ? item.plan_id : '…'}</h2>;
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
 * "Change plan" (ADR 196): the other recurring plans of the catalog, each with the price and period
 * it renews at from the end of the paid period; nothing is charged today. A pending change is shown
 * with the way to keep the current plan.
 */
function ChangePlan({
  catalog,
  item,
  onChanged,
  onFailed,
}: {
  catalog: PlanCatalog | null;
  item: SubscriptionSummary;
  onChanged: (message: string) => void;
  onFailed: (reason: unknown) => void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const from = item.current_period_end ? longDate(item.current_period_end) : '';
  const run = async (action: () => Promise<string>) => {
    setBusy(true);
    try {
      onChanged(await action());
      setOpen(false);
    } catch (reason) {
      onFailed(reason);
    } finally {
      setBusy(false);
    }
  };
  if (item.plan_change) {
    const change = item.plan_change;
    return (
      <div data-testid="plan-change-pending">
        <p>
          {t('webapp.subscriptions.planChangePending', {
            name: change.name,
            date: longDate(change.effective_at),
            price: formatUsd(change.amount),
            period: everyPeriod(change.period),
          })}
        </p>
        <button
          type="button"
          className="button button--secondary"
          disabled={busy}
          onClick={() =>
            void run(async () => {
              await keepPlan(item.id);
              return t('webapp.subscriptions.planChangeCanceled');
            })
          }
        >
          {t('webapp.subscriptions.planChangeCancel', { name: item.agreed?.name ?? item.plan_id })}
        </button>
      </div>
    );
  }
  const options = (catalog?.plans ?? []).filter((plan) => plan.length !== 'lifetime' && plan.id !== item.plan_id);
  if (options.length === 0) return null;
  if (!open)
    return (
      <button type="button" className="button button--secondary" aria-expanded={false} onClick={() => setOpen(true)}>
        {t('webapp.subscriptions.changePlan')}
      </button>
    );
  return (
    <div role="group" aria-label={t('webapp.subscriptions.changePlan')} data-testid="change-plan">
      <p>{t('webapp.subscriptions.changePlanTitle', { date: from })}</p>
      {options.map((plan) => {
        const summary = planAccountSummary(catalog!, plan.id);
        return (
          <button
            key={plan.id}
            type="button"
            className="button button--primary"
            disabled={busy}
            onClick={() =>
              void run(async () => {
                const change = await changePlan(item.id, plan.id);
                return t('webapp.subscriptions.planChangeDone', { name: change.name, date: longDate(change.effective_at) });
              })
            }
          >
            {t('webapp.subscriptions.changePlanOption', {
              name: plan.name,
              price: formatUsd(plan.sum),
              period: summary?.period ?? '',
              date: from,
            })}
          </button>
        );
      })}
      <button type="button" className="button button--secondary" onClick={() => setOpen(false)}>
        {t('webapp.subscriptions.changePlanKeep')}
      </button>
    </div>
  );
}

/** A renewal that failed (issue 35): said at the top, with the way to fix it. */
export function PastDueBanner({ items, onUpdateCard }: { items: readonly SubscriptionSummary[]; onUpdateCard: (id: string) => void }) {
  const { t } = useTranslation();
  const failing = items.filter((item) => item.status === 'past_due');
  if (failing.length === 0) return null;
  return (
    <>
      {failing.map((item) => (
        <section key={item.id} className="banner banner--warning" role="alert" data-testid="past-due-banner">
          <p>{t('webapp.subscriptions.pastDue', { plan: item.agreed?.name ?? item.plan_id })}</p>
          <button type="button" className="button button--primary" onClick={() => onUpdateCard(item.id)}>
            {t('webapp.subscriptions.updateCard')}
          </button>
        </section>
      ))}
    </>
  );
}

/**
 * Manage subscriptions: status, next charge, the card on file, a new card (the checkout's card form,
 * ADR 143) and cancel in two clicks (Cancel → Confirm). Only a plan that renews has a card to update
 * and a cancel; a one-time pack says it renews never (issue 23). While the money-back guarantee
 * lasts it is offered where the terms promise it: with the cancel, or as the pack's refund.
 */
export function ManageSubscriptionsScreen() {
  const { t } = useTranslation();
  const me = useSignedIn();
  const [items, setItems] = useState<SubscriptionSummary[] | null>(null);
  const [catalog, setCatalog] = useState<PlanCatalog | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  // `?update=<id>`: the home's past-due banner opens that subscription's card form here.
  const [search] = useSearchParams();
  const [updatingCard, setUpdatingCard] = useState<string | null>(search.get('update'));
  const { slug } = usePublicConfig();
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

  // The list shows the new card once it is saved (the form stays open with its outcome).
  const refresh = useCallback(() => {
    loadSubscriptions().then(setItems, () => undefined);
  }, []);

  /** Cancels (a renewing plan) or refunds (a one-time pack, or with the cancel) under the money-back guarantee. */
  const cancel = async (id: string, refund: boolean) => {
    try {
      const outcome = await cancelSubscription(id, refund);
      setConfirming(null);
      // A canceled or refunded subscription takes no new card: its open card form closes.
      setUpdatingCard(null);
      const updated = await loadSubscriptions();
      setItems(updated);
      // A cancel says until when access lasts (issue 24); a refund says what was refunded.
      const until = updated.find((item) => item.id === id)?.current_period_end;
      setMessage(
        outcome.refunded !== undefined
          ? t('webapp.subscriptions.refunded', { amount: formatUsd(outcome.refunded) })
          : until
            ? t('webapp.subscriptions.canceledUntil', { date: longDate(until) })
            : outcome.message,
      );
    } catch (reason) {
      failed(reason);
    }
  };

  return (
    <main className="screen manage-subscriptions" data-testid="manage-subscriptions-screen">
      <p>
        <Link to={productPath(slug, ROUTE_PATHS.webapp)}>{t('webapp.subscriptions.back')}</Link>
      </p>
      <h1 className="screen__title">{t('screens.titles.manageSubscriptions')}</h1>
      {items && (
        <PastDueBanner
          items={items}
          onUpdateCard={(id) => {
            setUpdatingCard(id);
            document.getElementById(`subscription-${id}`)?.scrollIntoView?.({ block: 'start' });
          }}
        />
      )}
      {message && <p role="status">{message}</p>}
      {items?.length === 0 && <p>{t('webapp.subscriptions.none')}</p>}
      <ul className="subscription-list">
        {items?.map((item) => (
          <li key={item.id} id={`subscription-${item.id}`} data-testid="subscription-item">
            <PlanHeading catalog={catalog} item={item} />
            <p>
              {t('webapp.subscriptions.status')}:{' '}
              <span data-testid="subscription-status" data-status={item.status}>
                {statusWords(item.status, item.agreed, item.renews)}
              </span>
            </p>
            <p>
              {t('webapp.subscriptions.nextCharge')}:{' '}
              {item.next_charge_at
                ? `${longDate(item.next_charge_at)} — ${item.next_charge_amount === null ? '' : formatUsd(item.next_charge_amount)}`
                : t('webapp.subscriptions.noNextCharge')}
            </p>
            {item.status === 'canceled' && item.current_period_end && (
              <p data-testid="access-until">{t('webapp.subscriptions.accessUntil', { date: longDate(item.current_period_end) })}</p>
            )}
            {item.refund && (
              <p data-testid="refund-offer">
                {t('webapp.subscriptions.guarantee', { amount: formatUsd(item.refund.amount), date: longDate(item.refund.until) })}
              </p>
            )}
            {item.card_last4 && (
              <p data-testid="subscription-card">
                {t('webapp.subscriptions.card')}: •••• {item.card_last4}
              </p>
            )}
            {!item.renews && <p data-testid="one-time-note">{t('webapp.subscriptions.oneTime')}</p>}
            {item.renews && isCancelable(item.status) && (
              <button
                type="button"
                className="button button--secondary"
                aria-expanded={updatingCard === item.id}
                aria-controls={`card-update-${item.id}`}
                onClick={() => setUpdatingCard(updatingCard === item.id ? null : item.id)}
              >
                {updatingCard === item.id ? t('webapp.subscriptions.closeUpdateCard') : t('webapp.subscriptions.updateCard')}
              </button>
            )}
            {updatingCard === item.id && item.renews && isCancelable(item.status) && (
              <div id={`card-update-${item.id}`}>
                <CardUpdate subscriptionId={item.id} onSaved={refresh} />
              </div>
            )}
            {item.renews && (item.status === 'trialing' || item.status === 'active') && confirming !== item.id && (
              <ChangePlan
                catalog={catalog}
                item={item}
                onChanged={(text) => {
                  setMessage(text);
                  refresh();
                }}
                onFailed={failed}
              />
            )}
            {item.renews && isCancelable(item.status) && confirming !== item.id && (
              <button type="button" className="button button--secondary" onClick={() => setConfirming(item.id)}>
                {t('webapp.subscriptions.cancel')}
              </button>
            )}
            {!item.renews && item.refund && confirming !== item.id && (
              <button type="button" className="button button--secondary" onClick={() => setConfirming(item.id)}>
                {t('webapp.subscriptions.refund', { amount: formatUsd(item.refund.amount) })}
              </button>
            )}
            {confirming === item.id && item.renews && (
              <div role="group" aria-label={t('webapp.subscriptions.confirmTitle')}>
                <p>{t('webapp.subscriptions.confirmTitle')}</p>
                <button type="button" className="button button--primary" onClick={() => void cancel(item.id, false)}>
                  {t('webapp.subscriptions.confirm')}
                </button>
                {item.refund && (
                  <button type="button" className="button button--secondary" onClick={() => void cancel(item.id, true)}>
                    {t('webapp.subscriptions.cancelAndRefund', { amount: formatUsd(item.refund.amount) })}
                  </button>
                )}
                <button type="button" className="button button--secondary" onClick={() => setConfirming(null)}>
                  {t('webapp.subscriptions.keep')}
                </button>
              </div>
            )}
            {confirming === item.id && !item.renews && item.refund && (
              <div role="group" aria-label={t('webapp.subscriptions.refundConfirmTitle', { amount: formatUsd(item.refund.amount) })}>
                <p>{t('webapp.subscriptions.refundConfirmTitle', { amount: formatUsd(item.refund.amount) })}</p>
                <button type="button" className="button button--primary" onClick={() => void cancel(item.id, true)}>
                  {t('webapp.subscriptions.refundConfirm')}
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
