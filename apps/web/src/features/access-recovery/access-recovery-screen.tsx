import { MESSAGES } from '@roots/contracts/messages';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { CodeForm } from '../../components/ui/code-field';
import { EmailForm } from '../../components/ui/email-form';
import { Screen } from '../../components/ui/screen';
import { signInWithEmailCode } from '../../lib/auth-session';
import { RequestError } from '../../lib/api-client';
import { productPath, ROUTE_PATHS } from '../../lib/paths';
import { usePublicConfig } from '../../lib/public-config-context';
import { readSessionValue } from '../../lib/session-keys';
import { useAction } from '../../lib/use-action';
import { requestAccessRecovery } from './api/request-access-recovery';

type Step = { kind: 'email' } | { kind: 'code'; email: string };

/**
 * Access recovery (ADR 072, 136): the customer gives the email they paid with; when signing in with
 * it reaches a purchase, a one-time code arrives by email and signs them in here, straight into the
 * webapp. The screen says the same whatever the email bought (an address's purchases are its
 * owner's business): what happened is told in the email itself, which names the way to sign in when
 * the purchase is in an account that signs in another way.
 */
export function AccessRecoveryScreen() {
  const { t } = useTranslation();
  const { slug } = usePublicConfig();
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>({ kind: 'email' });
  const { busy, error, setError, run } = useAction();

  const ask = (email: string) =>
    run(async () => {
      await requestAccessRecovery(email);
      setStep({ kind: 'code', email });
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
          <p>{t('account.accessRecovery.codeNotice')}</p>
        </CodeForm>
      )}
      {step.kind === 'code' && (
        <button type="button" className="button button--secondary" onClick={() => setStep({ kind: 'email' })}>
          {t('account.accessRecovery.tryAnother')}
        </button>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </Screen>
  );
}
