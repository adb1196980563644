import { MESSAGES } from '@roots/contracts/messages';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { CodeForm } from '../../components/ui/code-field';
import { EmailForm } from '../../components/ui/email-form';
import { Screen } from '../../components/ui/screen';
import { signInWithEmailCode } from '../../lib/auth-session';
import { RequestError } from '../../lib/api-client';
import { productPath, ROUTE_PATHS } from '../../lib/paths';
import { usePublicConfig } from '../../lib/public-config-context';
import { readSessionValue } from '../../lib/session-keys';
import { useAction } from '../../lib/use-action';
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
  const { busy, error, setError, run } = useAction();

  const ask = (email: string) =>
    run(async () => {
      const answer = await requestAccessRecovery(email);
      switch (answer.outcome) {
        case 'sent':
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

  const signIn = (email: string, code: string) =>
    run(async () => {
      const me = await signInWithEmailCode(email, code);
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
        <CodeForm
          label={t('account.accessRecovery.codeLabel')}
          submitLabel={t('account.accessRecovery.signIn')}
          busy={busy}
          onSubmit={(code) => void signIn(step.email, code)}
          onIncomplete={() => setError(MESSAGES.fillInField)}
        >
          <p role="status">{t('account.accessRecovery.codeSent', { email: step.email })}</p>
        </CodeForm>
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
