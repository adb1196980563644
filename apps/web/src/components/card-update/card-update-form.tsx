import type { CardUpdateCheckout, CardUpdateCompleteResponse, CardUpdateSubject } from '@roots/contracts/card-update';
import { formatUsd } from '@roots/contracts/disclosure';
import { RootsCheckout } from '@roots/checkout/react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/api-client';
import { CHECKOUT_FAILURE_WORDS } from '../../lib/checkout-words';
import { refreshSessionToken } from '../../lib/refresh-session-token';
import { useResource } from '../../lib/use-resource';
import './card-update.css';

/** How the form proves the subscription is the customer's: the signed-in owner's routes, or the emailed link's. */
export type CardUpdateApi = {
  /** Opens a card-verification checkout for the subscription (a new one on every call). */
  open: (signal: AbortSignal) => Promise<CardUpdateCheckout>;
  /** Puts the card the checkout verified (its execution) on the subscription. */
  complete: (executionId: string) => Promise<CardUpdateCompleteResponse>;
};

type Step =
  { kind: 'form' } | { kind: 'saving' } | { kind: 'saved'; subscription: CardUpdateSubject } | { kind: 'failed'; message: string };

/** 'March 5, 2026': the day a payment is due, in the reader's calendar. */
function day(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric' });
}

/** What happens with the card once it is saved: tried again now (past due), or the next payment's amount and day. */
function NextPayment({ subscription }: { subscription: CardUpdateSubject }) {
  const { t } = useTranslation();
  const amount = formatUsd(subscription.next_payment_amount);
  if (subscription.retry_now) return <p data-testid="update-card-next">{t('account.updateCard.retryNow', { amount })}</p>;
  return (
    <p data-testid="update-card-next">
      {subscription.next_payment_at
        ? t('account.updateCard.nextPayment', { amount, date: day(subscription.next_payment_at) })
        : t('account.updateCard.nextPaymentUndated', { amount })}
    </p>
  );
}

/**
 * A new card for one subscription (issue 23, ADR 143): which subscription and what happens next,
 * then the checkout's own secure card form (gateway iframes; the card never reaches our server)
 * on a zero-amount card-verification session; the verified card is then put on the subscription.
 * `resourceKey` names the subscription (or link) so another one opens a new checkout.
 */
export function CardUpdateForm({ api, resourceKey }: { api: CardUpdateApi; resourceKey: string }) {
  const { t } = useTranslation();
  // A new checkout for each try: a verified execution is used once.
  const [attempt, setAttempt] = useState(0);
  const opened = useResource(`${resourceKey}:${attempt}`, (signal) => api.open(signal));
  const [step, setStep] = useState<Step>({ kind: 'form' });
  const savedHeading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (step.kind === 'saved') savedHeading.current?.focus();
  }, [step.kind]);

  const complete = async (executionId: string) => {
    setStep({ kind: 'saving' });
    try {
      const { subscription } = await api.complete(executionId);
      setStep({ kind: 'saved', subscription });
    } catch (reason) {
      setStep({ kind: 'failed', message: errorMessage(reason) });
    }
  };
  const tryAgain = () => {
    setStep({ kind: 'form' });
    setAttempt((value) => value + 1);
  };

  if (step.kind === 'saved') {
    const { subscription } = step;
    return (
      <section key="saved" className="update-card__outcome outcome" role="status" data-testid="update-card-saved">
        <h2 ref={savedHeading} tabIndex={-1}>
          {t('account.updateCard.savedTitle')}
        </h2>
        <p>{t('account.updateCard.savedText', { last4: subscription.card_last4 ?? '', plan: subscription.plan_name })}</p>
        {subscription.retry_now ? (
          <p data-testid="update-card-next">
            {t('account.updateCard.savedRetry', { amount: formatUsd(subscription.next_payment_amount) })}
          </p>
        ) : (
          <NextPayment subscription={subscription} />
        )}
      </section>
    );
  }
  if (opened.status === 'error' || step.kind === 'failed') {
    return (
      <div className="update-card__failure">
        <p className="field-error" role="alert" data-testid="update-card-error">
          {step.kind === 'failed' ? step.message : errorMessage(opened.status === 'error' ? opened.error : undefined)}
        </p>
        <button type="button" className="button button--secondary" onClick={tryAgain}>
          {t('account.updateCard.tryAgain')}
        </button>
      </div>
    );
  }
  if (opened.status === 'loading') {
    return (
      <p className="update-card__loading" role="status" aria-busy="true">
        {t('account.updateCard.loading')}
      </p>
    );
  }
  const { checkout, subscription } = opened.data;
  return (
    <section
      key="form"
      className="update-card"
      aria-labelledby={`update-card-heading-${subscription.subscription_id}`}
      data-testid="update-card-form"
    >
      <h2 id={`update-card-heading-${subscription.subscription_id}`}>
        {t('account.updateCard.heading', { plan: subscription.plan_name })}
      </h2>
      <p>
        {subscription.card_last4 ? t('account.updateCard.currentCard', { last4: subscription.card_last4 }) : t('account.updateCard.noCard')}
      </p>
      <NextPayment subscription={subscription} />
      <p className="hint">{t('account.updateCard.chargesNothing')}</p>
      <div role="group" aria-label={t('account.updateCard.formLabel')}>
        <RootsCheckout
          className="checkout-slot"
          mode="card"
          session={checkout}
          getBearerToken={() => refreshSessionToken(checkout)}
          // Renewals charge it without the customer: the verified card is always stored.
          dropin={{ card: { alwaysStoreInstrument: true }, translations: CHECKOUT_FAILURE_WORDS }}
          onSuccess={({ execution }) => void complete(execution.id)}
        />
      </div>
      {step.kind === 'saving' && (
        <p role="status" aria-busy="true">
          {t('account.updateCard.saving')}
        </p>
      )}
    </section>
  );
}
