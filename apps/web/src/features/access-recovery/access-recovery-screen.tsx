import { MESSAGES } from '@roots/contracts/messages';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { CodeField, isCompleteCode } from '../../components/ui/code-field';
import { EmailForm } from '../../components/ui/email-form';
import { Screen } from '../../components/ui/screen';
import { fetchMe, verifyEmailCode } from '../../lib/auth-session';
import { FALLBACK_ERROR, RequestError } from '../../lib/http';
import { productPath, ROUTE_PATHS } from '../../lib/paths';
import { usePublicConfig } from '../../lib/public-config-context';
import { readSessionValue } from '../../lib/session-keys';
import { requestAccessRecovery } from './request-access-recovery';

type Step =
  | { kind: 'email' }
  | { kind: 'code'; email: string }
  | { kind: 'no-purchase'; email: string }
  | { kind: 'linked-elsewhere'; signInWith: 'google' | 'apple' | 'email' };

const LINKED_KEYS = {
  google: 'account.accessRecovery.linkedGoogle',
  apple: 'account.accessRecovery.linkedApple',
  email: 'account.accessRecovery.linkedEmail',
} as const;

/**
 * Access recovery (ADR 072): the customer gives the email they paid with; when signing in with it
 * reaches a purchase, a one-time code arrives by email and signs them in here, straight into the
 * webapp. Otherwise the screen says there is no purchase on that email, or which way the account
 * that holds it signs in.
 */
export function AccessRecoveryScreen() {
  const { t } = useTranslation();
  const { slug } = usePublicConfig();
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>({ kind: 'email' });
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (reason) {
      setError(reason instanceof RequestError ? reason.message : FALLBACK_ERROR);
    } finally {
      setBusy(false);
    }
  };

  const ask = (email: string) =>
    run(async () => {
      const answer = await requestAccessRecovery(email);
      switch (answer.outcome) {
        case 'sent':
          setCode('');
          setStep({ kind: 'code', email });
          return;
        case 'no_purchase':
          setStep({ kind: 'no-purchase', email });
          return;
        case 'linked_elsewhere':
          setStep({ kind: 'linked-elsewhere', signInWith: answer.sign_in_with });
          return;
        default: {
          const unknown: never = answer;
          throw new Error(`unknown access-recovery outcome ${JSON.stringify(unknown)}`);
        }
      }
    });

  const signIn = (email: string) =>
    run(async () => {
      await verifyEmailCode(email, code);
      const me = await fetchMe();
      if (!me?.has_purchase) throw new RequestError(MESSAGES.accountNotExistTitle, 'NO_PURCHASE', 404);
      await navigate(productPath(slug, ROUTE_PATHS.webapp));
    });

  return (
    <Screen title={t('screens.titles.accessRecovery')} testId="access-recovery-screen">
      {step.kind === 'email' && (
        <>
          <p>{t('account.accessRecovery.intro')}</p>
          <EmailForm
            label={t('account.accessRecovery.emailLabel')}
            submitLabel={t('account.accessRecovery.send')}
            defaultEmail={readSessionValue('userEmail') ?? ''}
            busy={busy}
            onSubmit={ask}
          />
        </>
      )}
      {step.kind === 'code' && (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (!isCompleteCode(code)) setError(MESSAGES.fillInField);
            else void signIn(step.email);
          }}
        >
          <p role="status">{t('account.accessRecovery.codeSent', { email: step.email })}</p>
          <CodeField label={t('account.accessRecovery.codeLabel')} value={code} onChange={setCode} />
          <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy || undefined}>
            {t('account.accessRecovery.signIn')}
          </button>
        </form>
      )}
      {step.kind === 'no-purchase' && (
        <section aria-labelledby="access-recovery-outcome">
          <h2 id="access-recovery-outcome">{t('account.accessRecovery.noPurchaseTitle')}</h2>
          <p>{t('account.accessRecovery.noPurchase', { email: step.email })}</p>
          <button type="button" className="button button--secondary" onClick={() => setStep({ kind: 'email' })}>
            {t('account.accessRecovery.tryAnother')}
          </button>
          <Link to={productPath(slug, '')}>{t('account.accessRecovery.start')}</Link>
        </section>
      )}
      {step.kind === 'linked-elsewhere' && (
        <section aria-labelledby="access-recovery-outcome">
          <h2 id="access-recovery-outcome">{t('account.accessRecovery.linkedTitle')}</h2>
          <p>{t(LINKED_KEYS[step.signInWith])}</p>
          <Link className="button" to={productPath(slug, ROUTE_PATHS.signIn)}>
            {t('account.accessRecovery.goToSignIn')}
          </Link>
        </section>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </Screen>
  );
}
