import { MESSAGES } from '@roots/contracts/messages';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { CodeField, isCompleteCode } from '../../components/ui/code-field';
import { EmailForm } from '../../components/ui/email-form';
import { postJson, RequestError, FALLBACK_ERROR } from '../../lib/http';

type Outcome = 'idle' | 'check-email' | 'no-subscriptions' | 'canceled';

/** Cancelling is as easy as buying: email, the code we send, done (product-spec §4 outcomes). */
export function CancelScreen({ withEmail }: { withEmail: boolean }) {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const [email, setEmail] = useState(withEmail ? (search.get('email') ?? '') : '');
  const [outcome, setOutcome] = useState<Outcome>(search.get('canceled') === 'true' ? 'canceled' : 'idle');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const request = async (body: { email: string; code?: string }) => {
    setBusy(true);
    setError(null);
    try {
      const answer = await postJson<{ message: string }>('/api/cancel-request', {
        ...body,
        host: window.location.host,
        emailing: true,
        inAppUnsubscribe: false,
      });
      setOutcome(answer.message === MESSAGES.subscriptionCanceled ? 'canceled' : 'check-email');
    } catch (reason) {
      if (reason instanceof RequestError && reason.message === MESSAGES.noSubscriptions) setOutcome('no-subscriptions');
      else setError(reason instanceof RequestError ? reason.message : FALLBACK_ERROR);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="screen cancel" data-testid="cancel-screen">
      <h1 className="screen__title">{t(withEmail ? 'screens.titles.unsubscribeWithEmail' : 'screens.titles.unsubscription')}</h1>
      {outcome === 'canceled' && (
        <p className="outcome" role="status">
          {MESSAGES.subscriptionCanceled}
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
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (isCompleteCode(code)) void request({ email, code });
            else setError(MESSAGES.fillInField);
          }}
        >
          <h2 role="status">{MESSAGES.checkYourEmail}</h2>
          <p>{t('screens.cancel.codeSent', { email })}</p>
          <CodeField label={t('screens.cancel.codeLabel')} value={code} onChange={setCode} />
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? 'Loading' : t('screens.cancel.confirm')}
          </button>
        </form>
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
