import { lazy, Suspense, useState, type ReactNode } from 'react';
import { EmptyPlaceholder } from '../ui/empty-placeholder';
import type { Selfie } from '../../lib/onboarding-store';
import type { CaptureEvent, CaptureStep } from './capture-steps';

/**
 * The capture's screens, each in its own chunk so the landing's first paint carries only the
 * walkthrough (or quiz). They are fetched once the visitor moves past the first screen
 * (`preloadCaptureSteps`), well before they are needed; React.lazy shows a loaded one at once.
 */
const loaders = {
  consent: () => import('./consent-step'),
  cameraTip: () => import('./camera-tip-step'),
  selfie: () => import('./selfie-step'),
  processing: () => import('./processing-step'),
};

const ConsentStep = lazy(async () => ({ default: (await loaders.consent()).ConsentStep }));
const CameraTipStep = lazy(async () => ({ default: (await loaders.cameraTip()).CameraTipStep }));
const SelfieStep = lazy(async () => ({ default: (await loaders.selfie()).SelfieStep }));
const ProcessingStep = lazy(async () => ({ default: (await loaders.processing()).ProcessingStep }));

/** Starts fetching every capture screen's chunk; the module cache makes repeated calls free. */
export function preloadCaptureSteps(): void {
  for (const load of Object.values(loaders)) void load().catch(() => undefined);
}

type CaptureViewProps = {
  /** The capture step on screen; null shows nothing (the caller is on a screen of its own). */
  step: CaptureStep | null;
  /** The photo taken, kept in memory by the caller; the check runs on it (and on its chosen face, ADR 192). */
  selfie: Selfie | null;
  send: (event: CaptureEvent) => void;
  /** A new photo, or the same photo with the face chosen in a group photo (same preview URL). */
  onPhoto: (selfie: Selfie) => void;
  /** The server's check accepted the photo. Must be stable: the check restarts when it changes. */
  onAccepted: () => void;
};

/**
 * The screens of the selfie capture (consent, camera tip, camera or upload, the quality check), for
 * the funnel and the signed-in app alike. Each screen loads lazily inside this component's own
 * Suspense boundary, so what it keeps (camera or upload) outlives a screen that is still loading.
 */
export function CaptureView(props: CaptureViewProps) {
  const [cameraMode, setCameraMode] = useState<'camera' | 'upload'>('camera');
  return <Suspense fallback={<EmptyPlaceholder />}>{captureScreen(props, cameraMode, setCameraMode)}</Suspense>;
}

function captureScreen(
  { step, selfie, send, onPhoto, onAccepted }: CaptureViewProps,
  cameraMode: 'camera' | 'upload',
  setCameraMode: (mode: 'camera' | 'upload') => void,
): ReactNode {
  const back = () => send({ type: 'back' });
  const open = (mode: 'camera' | 'upload') => {
    setCameraMode(mode);
    send({ type: 'open-camera' });
  };
  switch (step) {
    case 'consent':
      return <ConsentStep onConsent={() => send({ type: 'consent-given' })} onBack={back} />;
    case 'camera-tip':
      return <CameraTipStep onOpenCamera={() => open('camera')} onUpload={() => open('upload')} onBack={back} />;
    case 'selfie':
      return (
        <SelfieStep
          initialMode={cameraMode}
          onPhoto={(photo) => {
            onPhoto(photo);
            send({ type: 'photo-taken' });
          }}
          onBack={back}
        />
      );
    case 'processing':
      return (
        selfie && (
          <ProcessingStep
            key={selfie.face ? Object.values(selfie.face).join(',') : 'photo'}
            selfie={selfie}
            onAccepted={onAccepted}
            onRejected={() => send({ type: 'photo-rejected' })}
            onFaceChosen={(face) => onPhoto({ ...selfie, face })}
          />
        )
      );
    default:
      return null;
  }
}
