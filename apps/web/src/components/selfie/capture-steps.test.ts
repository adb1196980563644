import { describe, expect, it } from 'vitest';
import { isCaptureStep, nextCaptureStep, type CaptureEvent, type CaptureStep } from './capture-steps';

describe('the selfie capture’s state machine (shared by the funnel and the signed-in app)', () => {
  it('walks consent → camera tip → selfie → check, and ends when the check accepts the photo', () => {
    const events: CaptureEvent['type'][] = ['consent-given', 'open-camera', 'photo-taken', 'photo-accepted'];
    const visited = events.reduce<Array<CaptureStep | 'left' | 'accepted'>>(
      (steps, type) => [...steps, nextCaptureStep(steps.at(-1) as CaptureStep, { type })],
      ['consent'],
    );
    expect(visited).toEqual(['consent', 'camera-tip', 'selfie', 'processing', 'accepted']);
  });

  it('never opens the camera without the consent, and sends a refused photo back to it', () => {
    expect(nextCaptureStep('consent', { type: 'open-camera' })).toBe('consent');
    expect(nextCaptureStep('consent', { type: 'photo-taken' })).toBe('consent');
    expect(nextCaptureStep('processing', { type: 'photo-rejected' })).toBe('selfie');
    expect(nextCaptureStep('selfie', { type: 'photo-accepted' })).toBe('selfie');
  });

  it('goes back one step at a time, and out of the capture from the consent', () => {
    expect(nextCaptureStep('selfie', { type: 'back' })).toBe('camera-tip');
    expect(nextCaptureStep('camera-tip', { type: 'back' })).toBe('consent');
    expect(nextCaptureStep('consent', { type: 'back' })).toBe('left');
    expect(nextCaptureStep('processing', { type: 'back' })).toBe('processing');
  });

  it('knows its own steps', () => {
    expect(['consent', 'camera-tip', 'selfie', 'processing', 'email', 'walkthrough'].filter(isCaptureStep)).toEqual([
      'consent',
      'camera-tip',
      'selfie',
      'processing',
    ]);
  });
});
