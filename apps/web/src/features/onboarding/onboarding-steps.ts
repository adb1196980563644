/** The onboarding funnel of product-spec §1 and §4, as an explicit state machine. */
export type OnboardingStep = 'walkthrough' | 'consent' | 'camera-tip' | 'selfie' | 'processing' | 'email';

export type OnboardingEvent =
  | { type: 'walkthrough-done' }
  | { type: 'consent-given' }
  | { type: 'open-camera' }
  | { type: 'photo-taken' }
  | { type: 'photo-accepted' }
  | { type: 'photo-rejected' }
  | { type: 'back' };

/** The one transition function; an event that does not apply to a step leaves it unchanged. */
export function nextOnboardingStep(step: OnboardingStep, event: OnboardingEvent): OnboardingStep {
  switch (step) {
    case 'walkthrough':
      return event.type === 'walkthrough-done' ? 'consent' : step;
    case 'consent':
      if (event.type === 'consent-given') return 'camera-tip';
      return event.type === 'back' ? 'walkthrough' : step;
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
