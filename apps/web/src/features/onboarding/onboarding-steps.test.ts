import { describe, expect, it } from 'vitest';
import { firstOnboardingStep, nextOnboardingStep, type OnboardingEvent, type OnboardingStep } from './onboarding-steps';

describe('onboarding state machine', () => {
  it('walks the funnel order of product-spec §1', () => {
    const events: OnboardingEvent['type'][] = ['walkthrough-done', 'consent-given', 'open-camera', 'photo-taken', 'photo-accepted'];
    const visited = events.reduce<OnboardingStep[]>(
      (steps, type) => [...steps, nextOnboardingStep(steps.at(-1)!, { type })],
      ['walkthrough'],
    );
    expect(visited).toEqual(['walkthrough', 'consent', 'camera-tip', 'selfie', 'processing', 'email']);
  });

  it('never reaches the camera without consent', () => {
    expect(nextOnboardingStep('walkthrough', { type: 'open-camera' })).toBe('walkthrough');
    expect(nextOnboardingStep('consent', { type: 'open-camera' })).toBe('consent');
    expect(nextOnboardingStep('consent', { type: 'photo-taken' })).toBe('consent');
  });

  it('sends a rejected photo back to the camera and never on to email', () => {
    expect(nextOnboardingStep('processing', { type: 'photo-rejected' })).toBe('selfie');
    expect(nextOnboardingStep('selfie', { type: 'photo-accepted' })).toBe('selfie');
  });

  it('goes back one step at a time', () => {
    expect(nextOnboardingStep('consent', { type: 'back' })).toBe('walkthrough');
    expect(nextOnboardingStep('camera-tip', { type: 'back' })).toBe('consent');
    expect(nextOnboardingStep('selfie', { type: 'back' })).toBe('camera-tip');
    expect(nextOnboardingStep('email', { type: 'back' })).toBe('selfie');
    expect(nextOnboardingStep('processing', { type: 'back' })).toBe('processing');
  });

  it('the quiz variant asks the quiz in place of the walkthrough, then the same funnel', () => {
    const events: OnboardingEvent['type'][] = ['quiz-done', 'consent-given', 'open-camera', 'photo-taken', 'photo-accepted'];
    const visited = events.reduce<OnboardingStep[]>(
      (steps, type) => [...steps, nextOnboardingStep(steps.at(-1)!, { type }, 'quiz')],
      [firstOnboardingStep('quiz')],
    );
    expect(visited).toEqual(['quiz', 'consent', 'camera-tip', 'selfie', 'processing', 'email']);
    expect(nextOnboardingStep('consent', { type: 'back' }, 'quiz')).toBe('quiz');
    expect(nextOnboardingStep('quiz', { type: 'open-camera' }, 'quiz')).toBe('quiz');
    expect(nextOnboardingStep('quiz', { type: 'walkthrough-done' }, 'quiz')).toBe('quiz');
    expect(firstOnboardingStep('walkthrough')).toBe('walkthrough');
  });
});
