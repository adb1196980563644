import { formatUsd } from '@roots/contracts/disclosure';
import { MESSAGES } from '@roots/contracts/messages';
import type { CancelLinkDetails } from '@roots/contracts/subscriptions';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { CodeForm } from '../../components/ui/code-field';
import { EmailForm } from '../../components/ui/email-form';
import { RequestError } from '../../lib/api-client';
import { cancelByLink, loadCancelLinkDetails } from './api/cancel-link';
import { requestCancel } from './api/request-cancel';
import { useAction } from '../../lib/use-action';
import { longDate } from '../../lib/format-date';

type Outcome = 'idle' | 'confirm-link' | 'kept' | 'check-email' | 'no-subscriptions' | 'canceled';

/** Cancelling is as easy as buying: email, the code we send, done (product-spec §4 outcomes). */
export function CancelScreen({ withEmail }: { withEmail: boolean }) {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const [email, setEmail] = useState(withEmail ? (search.get('email') ?? '') : '');
  // The emailed one-click link lands here with `link`: opening it changes nothing (mail scanners
  // follow links), the button below cancels (ADR 085).
  const link = search.get('link');
  const [outcome, setOutcome] = useState<Outcome>(link ? 'confirm-link' : 'idle');
  const { busy, error, setError, run } = useAction();

  // What the link names (plan, access, the guarantee's refund), so the page can say it; a stale link asks by email.
  const [details, setDetails] = useState<CancelLinkDetails | null>(null);
  const [refunded, setRefunded] = useState<number | null>(null);
  useEffect(() => {
    if (!link) return;
    const controller = new AbortController();
    loadCancelLinkDetails(link, controller.signal).then(
      (answer) => !controller.signal.aborted && setDetails(answer),
      () => !controller.signal.aborted && setOutcome((current) => (current === 'confirm-link' ? 'idle' : current)),
    );
    return () => controller.abort();
  }, [link]);

  const confirmByLink = (token: string, refund: boolean) =>
    run(async () => {
      try {
        const answer = await cancelByLink(token, refund);
        setRefunded(answer.refunded ?? null);
        setOutcome('canceled');
      } catch (reason) {
        // A stale link: ask by email instead.
        if (reason instanceof RequestError && reason.message === MESSAGES.noSubscriptions) setOutcome('idle');
        else throw reason;
      }
    });

  const request = (body: { email: string; code?: string }) =>
    run(async () => {
      try {
        const answer = await requestCancel(body);
        setOutcome(answer.message === MESSAGES.subscriptionCanceled ? 'canceled' : 'check-email');
      } catch (reason) {
        // 'No subscriptions' is an outcome of the flow, not an error.
        if (reason instanceof RequestError && reason.message === MESSAGES.noSubscriptions) setOutcome('no-subscriptions');
        else throw reason;
      }
    });

  return (
    <main className="screen cancel" data-testid="cancel-screen">
      <h1 className="screen__title">{t(withEmail ? 'screens.titles.unsubscribeWithEmail' : 'screens.titles.unsubscription')}</h1>
      {outcome === 'confirm-link' && link && (
        <div className="outcome">
          <h2>{t('screens.cancel.linkTitle')}</h2>
          <p>{t('screens.cancel.linkText')}</p>
          {details?.subscription.current_period_end && (
            <p data-testid="link-plan">
              {t('screens.cancel.linkPlan', { plan: details.plan_name, date: longDate(details.subscription.current_period_end) })}
            </p>
          )}
          {details?.subscription.refund && (
            <p data-testid="refund-offer">
              {t('screens.cancel.guarantee', {
                amount: formatUsd(details.subscription.refund.amount),
                date: longDate(details.subscription.refund.until),
              })}
            </p>
          )}
          <button type="button" className="button button--primary" disabled={busy} onClick={() => void confirmByLink(link, false)}>
            {t('screens.cancel.confirm')}
          </button>
          {details?.subscription.refund && (
            <button type="button" className="button button--secondary" disabled={busy} onClick={() => void confirmByLink(link, true)}>
              {t('screens.cancel.confirmAndRefund', { amount: formatUsd(details.subscription.refund.amount) })}
            </button>
          )}
          <button type="button" className="button button--secondary" disabled={busy} onClick={() => setOutcome('kept')}>
            {t('screens.cancel.keep')}
          </button>
        </div>
      )}
      {outcome === 'kept' && (
        <p className="outcome" role="status">
          {t('screens.cancel.kept')}
        </p>
      )}
      {outcome === 'canceled' && (
        <p className="outcome" role="status">
          {MESSAGES.subscriptionCanceled}
          {refunded !== null && ` ${t('screens.cancel.refunded', { amount: formatUsd(refunded) })}`}
        </p>
      )}
      {outcome === 'no-subscriptions' && (
        <div className="outcome" role="status">
          <h2>{MESSAGES.noSubscriptions}</h2>
          <p>{MESSAGES.noSubscriptionsDescription}</p>
          <button type="button" className="button button--secondary" onClick={() => setOutcome('idle')}>
            {t('screens.cancel.tryAnother')}
          </button>
        </div>
      )}
      {outcome === 'idle' && (
        <EmailForm
          label={t('screens.onboarding.emailLabel')}
          submitLabel={t('screens.cancel.sendCode')}
          defaultEmail={email}
          busy={busy}
          onSubmit={(value) => {
            setEmail(value);
            return request({ email: value });
          }}
        >
          <p className="hint">{t('screens.cancel.explain')}</p>
        </EmailForm>
      )}
      {outcome === 'check-email' && (
        <CodeForm
          label={t('screens.cancel.codeLabel')}
          submitLabel={t('screens.cancel.confirm')}
          busy={busy}
          onSubmit={(code) => void request({ email, code })}
          onIncomplete={() => setError(MESSAGES.fillInField)}
        >
          <h2 role="status">{MESSAGES.checkYourEmail}</h2>
          <p>{t('screens.cancel.codeSent', { email })}</p>
        </CodeForm>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </main>
  );
}

export function UnsubscriptionScreen() {
  return <CancelScreen withEmail={false} />;
}

export function UnsubscribeWithEmailScreen() {
  return <CancelScreen withEmail />;
}
