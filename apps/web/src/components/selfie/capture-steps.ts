/**
 * The selfie capture (product-spec §1, §4) as an explicit state machine: consent, the camera tip,
 * the selfie, the server's quality check. The funnel runs it between its first screen and the
 * email; the signed-in app's 'Take a selfie' runs it on its own (ADR 145). Both see the same
 * consents and the same checks because both run this one machine.
 */
export type CaptureStep = 'consent' | 'camera-tip' | 'selfie' | 'processing';

export type CaptureEvent =
  | { type: 'consent-given' }
  | { type: 'open-camera' }
  | { type: 'photo-taken' }
  | { type: 'photo-accepted' }
  | { type: 'photo-rejected' }
  | { type: 'back' };

/** How a capture ends: Back from the consent (`left`), or a photo the check accepted (`accepted`). */
export type CaptureExit = 'left' | 'accepted';

const CAPTURE_STEPS: readonly CaptureStep[] = ['consent', 'camera-tip', 'selfie', 'processing'];

export function isCaptureStep(step: string): step is CaptureStep {
  return (CAPTURE_STEPS as readonly string[]).includes(step);
}

/**
 * The one transition function of the capture; an event that does not apply to a step leaves it
 * unchanged. The camera is never reached without the consent, and a refused photo goes back to it.
 */
export function nextCaptureStep(step: CaptureStep, event: CaptureEvent): CaptureStep | CaptureExit {
  switch (step) {
    case 'consent':
      if (event.type === 'consent-given') return 'camera-tip';
      return event.type === 'back' ? 'left' : step;
    case 'camera-tip':
      if (event.type === 'open-camera') return 'selfie';
      return event.type === 'back' ? 'consent' : step;
    case 'selfie':
      if (event.type === 'photo-taken') return 'processing';
      return event.type === 'back' ? 'camera-tip' : step;
    case 'processing':
      if (event.type === 'photo-accepted') return 'accepted';
      return event.type === 'photo-rejected' ? 'selfie' : step;
  }
}
