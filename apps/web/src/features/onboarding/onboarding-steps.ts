import { nextCaptureStep, type CaptureEvent, type CaptureStep } from '../../components/selfie/capture-steps';

/**
 * The onboarding funnel of product-spec §1 and §4, as an explicit state machine: the first screen,
 * the selfie capture (shared with the signed-in app, `components/selfie/capture-steps.ts`), the email.
 */
export type OnboardingStep = 'walkthrough' | 'quiz' | CaptureStep | 'email';

/**
 * The two landing variants: the three-slide walkthrough (`/{slug}/`), or the quiz (`/{slug}/quiz`)
 * in its place — product-spec §1: a quiz precedes plan choice in one variant of the funnel.
 */
export type FunnelVariant = 'walkthrough' | 'quiz';

export type OnboardingEvent = { type: 'walkthrough-done' } | { type: 'quiz-done' } | CaptureEvent;

/** The step a visitor lands on in each variant. */
export function firstOnboardingStep(variant: FunnelVariant): OnboardingStep {
  return variant === 'quiz' ? 'quiz' : 'walkthrough';
}

/** The one transition function; an event that does not apply to a step leaves it unchanged. */
export function nextOnboardingStep(step: OnboardingStep, event: OnboardingEvent, variant: FunnelVariant = 'walkthrough'): OnboardingStep {
  switch (step) {
    case 'walkthrough':
      return event.type === 'walkthrough-done' ? 'consent' : step;
    case 'quiz':
      return event.type === 'quiz-done' ? 'consent' : step;
    case 'email':
      return event.type === 'back' ? 'selfie' : step;
    default: {
      if (event.type === 'walkthrough-done' || event.type === 'quiz-done') return step;
      // Back from the consent returns to the first screen; an accepted photo goes on to the email.
      const next = nextCaptureStep(step, event);
      if (next === 'left') return firstOnboardingStep(variant);
      return next === 'accepted' ? 'email' : next;
    }
  }
}
