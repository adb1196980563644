import type { AuthProvider, MeResponse } from '@roots/contracts/auth';
import { identityErrorCode } from '@roots/contracts/identity-errors';
import { MESSAGES } from '@roots/contracts/messages';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { CodeForm } from '../../components/ui/code-field';
import { Dialog } from '../../components/ui/dialog';
import { EmailForm } from '../../components/ui/email-form';
import {
  clearRedirectFlagLater,
  fetchSessionState,
  fetchSignInOptions,
  sendEmailCode,
  signInWithEmailCode,
  signOut,
  startRedirectSignIn,
} from '../../lib/auth-session';
import { errorMessage } from '../../lib/api-client';
import { finalizeSubscription } from './api/finalize-subscription';
import { productPath, ROUTE_PATHS } from '../../lib/paths';
import { usePublicConfig } from '../../lib/public-config-context';
import { readSessionValue } from '../../lib/session-keys';
import { track } from '../../lib/track';
import { useAction } from '../../lib/use-action';
import { useResource } from '../../lib/use-resource';

type Step = 'checking' | 'choose' | 'code' | 'not-exist' | 'refunded-duplicate';

type SetStep = (step: Step) => void;

/**
 * After a sign-in: the purchase of this visit (carried from offers as vSubscriptionId, or kept in
 * the session) is linked to whoever signs in, whatever address their provider returns (issue 14);
 * no purchase → the not-exist modal; otherwise on to the webapp.
 */
function useAfterSignIn(setStep: SetStep, setError: (message: string) => void, setRefunded: (message: string) => void) {
  const { slug } = usePublicConfig();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  return async (me: MeResponse) => {
    const subscriptionId = search.get('vSubscriptionId') ?? readSessionValue('subscriptionId');
    const next = new URLSearchParams(search);
    next.delete('vSubscriptionId');
    if (subscriptionId) {
      try {
        // Only an answer naming the subscription links it (product-spec §4): another answer fails to parse.
        const linked = await finalizeSubscription({
          subscription_id: subscriptionId,
          email: readSessionValue('userEmail') ?? me.user.email,
          firebase_id: me.user.uid,
          attribution: (await import('../../lib/tracking')).currentAttribution(slug),
        });
        window.sessionStorage.clear();
        // A second plan beside the one this account has (ADR 196): refunded now; the page says so.
        if (linked.refunded_duplicate) {
          setRefunded(linked.refunded_duplicate.message);
          setStep('refunded-duplicate');
          return;
        }
      } catch (reason) {
        setError(errorMessage(reason, MESSAGES.finalizeError));
        setStep('choose');
        return;
      }
    } else if (!me.has_purchase) {
      setStep('not-exist');
      return;
    }
    const query = next.toString();
    await navigate(`${productPath(slug, ROUTE_PATHS.webapp)}${query ? `?${query}` : ''}`);
  };
}

/**
 * The start-up: the redirect result is read once (product-spec §4) with the sign-in options; a
 * signed-in user is handed to `afterSignIn`. Until an action moves the screen on, the answer decides
 * the step: a signed-in user waits on 'checking' while their purchase is linked; anyone else (or a
 * failed start-up) chooses.
 */
function useSignInStart(afterSignIn: (me: MeResponse) => Promise<void>, setStep: SetStep) {
  // The latest `afterSignIn` (it sees the latest state) without making the start-up effect re-run.
  const latestAfterSignIn = useRef(afterSignIn);
  useLayoutEffect(() => {
    latestAfterSignIn.current = afterSignIn;
  });
  useEffect(() => {
    // Not tied to this screen: a returning user is sent on to the webapp before the 3 s are up.
    clearRedirectFlagLater();
    // A provider that refused or failed comes back with ?error=…: only logged (product-spec §8).
    const redirectError = new URLSearchParams(window.location.search).get('error');
    if (redirectError)
      console.error('sign-in redirect', identityErrorCode({ status: 400, code: redirectError }) ?? redirectError, redirectError);
  }, []);

  const startUp = useResource('start-up', () => Promise.all([fetchSessionState(), fetchSignInOptions()]));
  const providers: AuthProvider[] = startUp.status === 'ready' ? startUp.data[1].providers : [];
  const signedIn = startUp.status === 'ready' ? startUp.data[0] : null;
  const startUpError = startUp.status === 'error' ? startUp.error : null;
  useEffect(() => {
    if (startUpError) console.error('sign-in start-up', startUpError);
  }, [startUpError]);
  useEffect(() => {
    if (!signedIn) return;
    // Settled after the answer, as before: a failed hand-over is logged and the choice shown.
    void Promise.resolve(signedIn)
      .then((me) => latestAfterSignIn.current(me))
      .catch((reason: unknown) => {
        console.error('sign-in start-up', reason);
        setStep('choose');
      });
  }, [signedIn, setStep]);
  const startUpStep: Step = startUp.status === 'loading' || signedIn ? 'checking' : 'choose';
  return { providers, startUpStep };
}

type ChooseStepProps = {
  providers: AuthProvider[];
  email: string;
  action: Pick<ReturnType<typeof useAction>, 'busy' | 'run'>;
  /** Sends a code to the address typed (run as the screen's action). */
  sendCode: (email: string) => Promise<void>;
};

/** The choice: a redirect provider, or an email code; and the link to access recovery. */
function ChooseStep({ providers, email, action: { busy, run }, sendCode }: ChooseStepProps) {
  const { t } = useTranslation();
  const { slug } = usePublicConfig();
  const callbackPath = `${window.location.pathname}${window.location.search}`;
  return (
    <>
      {providers.map((provider) => (
        <button
          key={provider}
          type="button"
          className="button button--secondary"
          disabled={busy}
          onClick={() =>
            void run(() => {
              track(slug, 'waiting for redirect response');
              return startRedirectSignIn(provider, callbackPath);
            })
          }
        >
          {t(provider === 'google' ? 'signIn.google' : 'signIn.apple')}
        </button>
      ))}
      <EmailForm
        label={t('signIn.emailLabel')}
        submitLabel={t('signIn.sendCode')}
        defaultEmail={email || readSessionValue('userEmail') || ''}
        busy={busy}
        onSubmit={(value) => run(() => sendCode(value))}
      />
      <p>
        <Link to={productPath(slug, ROUTE_PATHS.accessRecovery)}>{t('signIn.recoverAccess')}</Link>
      </p>
    </>
  );
}

/** No purchase for this account: join the product, or sign out and choose again (Escape: 'Not now'). */
function NotExistModal({ onNotNow }: { onNotNow: () => void }) {
  const { slug, productName } = usePublicConfig();
  const navigate = useNavigate();
  const notNow = () => void signOut().then(onNotNow);
  return (
    // The app's one modal dialog (ADR 185): the page behind inert, the primary action first and focused.
    <Dialog
      testId="not-exist-modal"
      title={MESSAGES.accountNotExistTitle}
      description={MESSAGES.accountNotExistDescription}
      onDismiss={notNow}
      actions={
        <>
          <button
            type="button"
            className="button button--primary"
            data-autofocus
            onClick={() => void signOut().then(() => navigate(productPath(slug, '')))}
          >
            {MESSAGES.joinProductNow.replace('{product}', productName)}
          </button>
          <button type="button" className="button button--secondary" onClick={notNow}>
            {MESSAGES.notNow}
          </button>
        </>
      }
    />
  );
}

/**
 * `/sign-in` and `/activate` (activation mode): redirect sign-in or an email code; on return the
 * session is read once; no purchase → the not-exist modal; `vSubscriptionId` → finalize → webapp.
 */
export function SignInScreen({ activation = false }: { activation?: boolean }) {
  const { t } = useTranslation();
  const { slug } = usePublicConfig();
  const [movedTo, setStep] = useState<Step | null>(null);
  const [email, setEmail] = useState('');
  const [refunded, setRefunded] = useState<string | null>(null);
  const action = useAction();
  const { busy, error, setError, run } = action;
  useEffect(() => track(slug, 'account'), [slug]);
  const afterSignIn = useAfterSignIn(setStep, setError, setRefunded);
  const { providers, startUpStep } = useSignInStart(afterSignIn, setStep);
  const step = movedTo ?? startUpStep;

  return (
    <main className="screen sign-in" data-testid="sign-in-screen">
      <h1 className="screen__title">{t(activation ? 'screens.titles.activate' : 'screens.titles.signIn')}</h1>
      {step === 'checking' && <p role="status">{t('signIn.checking')}</p>}
      {step === 'refunded-duplicate' && refunded && (
        <section role="status" data-testid="refunded-duplicate">
          <h2>{t('signIn.refundedDuplicateTitle')}</h2>
          <p>{refunded}</p>
          <Link className="button button--primary" to={productPath(slug, ROUTE_PATHS.manageSubscriptions)}>
            {t('signIn.openAccount')}
          </Link>
        </section>
      )}
      {step === 'choose' && (
        <ChooseStep
          providers={providers}
          email={email}
          action={action}
          sendCode={async (value) => {
            setEmail(value);
            await sendEmailCode(value);
            setStep('code');
          }}
        />
      )}
      {step === 'code' && (
        <CodeForm
          label={t('signIn.codeLabel')}
          submitLabel={t('signIn.verify')}
          busy={busy}
          onSubmit={(code) =>
            void run(async () => {
              const me = await signInWithEmailCode(email, code);
              if (me) await afterSignIn(me);
            })
          }
          onIncomplete={() => setError(MESSAGES.fillInField)}
        >
          <p role="status">{t('signIn.codeSent', { email })}</p>
        </CodeForm>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {step === 'not-exist' && <NotExistModal onNotNow={() => setStep('choose')} />}
    </main>
  );
}

export const ActivateScreen = () => <SignInScreen activation />;
