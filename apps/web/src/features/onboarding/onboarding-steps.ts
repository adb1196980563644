/** The onboarding funnel of product-spec §1 and §4, as an explicit state machine. */
export type OnboardingStep = 'walkthrough' | 'quiz' | 'consent' | 'camera-tip' | 'selfie' | 'processing' | 'email';

/**
 * The two landing variants: the three-slide walkthrough (`/{slug}/`), or the quiz (`/{slug}/quiz`)
 * in its place — product-spec §1: a quiz precedes plan choice in one variant of the funnel.
 */
export type FunnelVariant = 'walkthrough' | 'quiz';

export type OnboardingEvent =
  | { type: 'walkthrough-done' }
  | { type: 'quiz-done' }
  | { type: 'consent-given' }
  | { type: 'open-camera' }
  | { type: 'photo-taken' }
  | { type: 'photo-accepted' }
  | { type: 'photo-rejected' }
  | { type: 'back' };

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
    case 'consent':
      if (event.type === 'consent-given') return 'camera-tip';
      return event.type === 'back' ? firstOnboardingStep(variant) : step;
    case 'camera-tip':
      if (event.type === 'open-camera') return 'selfie';
      return event.type === 'back' ? 'consent' : step;
    case 'selfie':
      if (event.type === 'photo-taken') return 'processing';
      return event.type === 'back' ? 'camera-tip' : step;
    case 'processing':
      if (event.type === 'photo-accepted') return 'email';
      return event.type === 'photo-rejected' ? 'selfie' : step;
    case 'email':
      return event.type === 'back' ? 'selfie' : step;
  }
}
