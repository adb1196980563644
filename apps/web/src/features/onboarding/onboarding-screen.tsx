import { Suspense, useCallback, useEffect, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { EmptyPlaceholder } from '../../components/ui/empty-placeholder';
import { isCaptureStep } from '../../components/selfie/capture-steps';
import { CaptureView } from '../../components/selfie/capture-view';
import { useOnboardingStore, useQuizStore } from '../../lib/onboarding-store';
import { productPath, ROUTE_PATHS } from '../../lib/paths';
import { usePublicConfig } from '../../lib/public-config-context';
import { writeSessionValue } from '../../lib/session-keys';
import { track, type FunnelEvent } from '../../lib/track';
import { EmailStep, preloadLaterSteps } from './later-steps';
import { firstOnboardingStep, nextOnboardingStep, type FunnelVariant, type OnboardingEvent, type OnboardingStep } from './onboarding-steps';
import { QUIZ_PATH, quizStartFrom } from './quiz';
import { QuizStep } from './quiz-step';
import { WalkthroughStep } from './walkthrough-step';

/** The funnel stage event each step sends when tracking is on (product-spec §3). */
const STEP_EVENTS: Record<OnboardingStep, FunnelEvent> = {
  walkthrough: 'intro',
  quiz: 'intro',
  consent: 'onboarding',
  'camera-tip': 'camera tip',
  selfie: 'selfie',
  processing: 'selfie processing',
  email: 'e-mail screen',
};

/**
 * Main landing (`/{slug}/*`): the onboarding funnel of product-spec §1 — walkthrough, consent,
 * camera tip, selfie, processing, email — then on to the paywall with the query string kept.
 * Under `/{slug}/quiz` the quiz variant asks its questions (from `startFrom`) in the walkthrough's place.
 */
export function OnboardingScreen() {
  const { slug } = usePublicConfig();
  const navigate = useNavigate();
  const location = useLocation();
  const variant: FunnelVariant = useParams()['*'] === QUIZ_PATH ? 'quiz' : 'walkthrough';
  const { selfie, setSelfie } = useOnboardingStore();
  const quizEmail = useQuizStore((state) => state.email);
  const setQuizEmail = useQuizStore((state) => state.setEmail);
  const [step, setStep] = useState<OnboardingStep>(() => firstOnboardingStep(variant));
  const send = useCallback((event: OnboardingEvent) => setStep((current) => nextOnboardingStep(current, event, variant)), [variant]);
  const accepted = useCallback(() => {
    // A flag, never the photo: after a reload the paywall says the selfie will be asked again (ADR 145).
    writeSessionValue('selfieTaken', '1');
    send({ type: 'photo-accepted' });
  }, [send]);

  useEffect(() => track(slug, STEP_EVENTS[step]), [slug, step]);

  // The later steps' code is not part of the first load; it is fetched at the first tap or key.
  useEffect(() => {
    const controller = new AbortController();
    const preload = () => {
      controller.abort();
      preloadLaterSteps();
    };
    window.addEventListener('pointerdown', preload, { signal: controller.signal, passive: true });
    window.addEventListener('keydown', preload, { signal: controller.signal });
    return () => controller.abort();
  }, []);

  // bb=true / bb_android=true: leave Instagram and Facebook in-app browsers (product-spec §2).
  // The user-agent parser loads only when the flag is present.
  useEffect(() => {
    const search = new URLSearchParams(location.search);
    if (search.get('bb') !== 'true' && search.get('bb_android') !== 'true') return;
    void import('./in-app-browser').then(({ inAppEscape }) => {
      const escape = inAppEscape(navigator.userAgent, window.location.href, search, {
        externalRedirectPageUrl: `/${slug}/open-in-browser.html`,
      });
      if (escape.kind === 'redirect') window.location.replace(escape.href);
    });
  }, [location.search, slug]);

  const onEmail = (email: string) => {
    setQuizEmail(email);
    void navigate(`${productPath(slug, ROUTE_PATHS.subscription)}${location.search}`);
  };

  return (
    <>
      <main className="screen onboarding" data-testid="landing-screen" data-variant={variant} data-step={step}>
        {step === 'walkthrough' && <WalkthroughStep onDone={() => send({ type: 'walkthrough-done' })} />}
        {step === 'quiz' && (
          <QuizStep startFrom={quizStartFrom(new URLSearchParams(location.search))} onDone={() => send({ type: 'quiz-done' })} />
        )}
        <Suspense fallback={<EmptyPlaceholder />}>
          <CaptureView step={isCaptureStep(step) ? step : null} selfie={selfie} send={send} onPhoto={setSelfie} onAccepted={accepted} />
          {step === 'email' && <EmailStep defaultEmail={quizEmail} onSubmit={onEmail} />}
        </Suspense>
      </main>
    </>
  );
}
