import type { FaceBox } from '@roots/contracts/face-check';
import { MESSAGES } from '@roots/contracts/messages';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/api-client';
import type { Selfie } from '../../lib/onboarding-store';
import { checkFace, severalFacesOf } from '../../lib/face-check';
import { FaceChooser } from './face-chooser';

/** product-spec §4: the three processing messages, shown in turn. */
const PROCESSING_MESSAGES = [MESSAGES.processingMappingFace, MESSAGES.processingTracingHeritage, MESSAGES.processingBuildingProfile];
/** Each message stays at least this long so all three are readable even on a fast check. */
const MESSAGE_MIN_MS = 1_100;

/**
 * Checks the photo on the server while the messages run. The bar follows the real work: upload
 * (0–50%), server check (50–90%), then the remaining messages (to 100%). A photo of several people
 * shows their faces to choose from (ADR 192); the chosen face comes back as the selfie's `face`
 * (`onFaceChosen`), and the check runs again on the same photo for that face alone (the caller
 * keys this step by the chosen face, so it starts afresh).
 */
export function ProcessingStep({
  selfie,
  onAccepted,
  onRejected,
  onFaceChosen,
}: {
  selfie: Selfie;
  onAccepted: () => void;
  onRejected: () => void;
  onFaceChosen: (face: FaceBox) => void;
}) {
  const { t } = useTranslation();
  const [messageIndex, setMessageIndex] = useState(0);
  const [progress, setProgress] = useState(0.02);
  const [error, setError] = useState<string | null>(null);
  const [faces, setFaces] = useState<FaceBox[] | null>(null);

  useEffect(() => {
    let cancelled = false;
    const started = Date.now();
    const timer = window.setInterval(() => {
      setMessageIndex((index) => Math.min(index + 1, PROCESSING_MESSAGES.length - 1));
    }, MESSAGE_MIN_MS);
    checkFace(selfie.blob, selfie.face, (fraction) => !cancelled && setProgress(Math.max(0.02, fraction * 0.5)))
      .then(async () => {
        if (cancelled) return;
        setProgress(0.9);
        const rest = PROCESSING_MESSAGES.length * MESSAGE_MIN_MS - (Date.now() - started);
        if (rest > 0) await new Promise((resolve) => window.setTimeout(resolve, rest));
        if (cancelled) return;
        setProgress(1);
        onAccepted();
      })
      .catch((reason: unknown) => {
        if (cancelled) return;
        const several = selfie.face ? null : severalFacesOf(reason);
        if (several) setFaces(several);
        else setError(errorMessage(reason));
      });
    return () => {
      cancelled = true;
      window.clearInterval(timer);
    };
  }, [selfie, onAccepted]);

  if (faces) return <FaceChooser previewUrl={selfie.previewUrl} faces={faces} onChoose={onFaceChosen} onRetake={onRejected} />;
  return (
    <section className="step processing">
      <h1 className="screen__title">{t('screens.onboarding.processingTitle')}</h1>
      {error ? (
        <>
          <p className="field-error" role="alert">
            {error}
          </p>
          <button type="button" className="button button--primary" onClick={onRejected}>
            {t('screens.onboarding.processingRetake')}
          </button>
        </>
      ) : (
        <>
          <div
            className="progress"
            role="progressbar"
            aria-label={t('screens.onboarding.processingTitle')}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(progress * 100)}
          >
            <div className="progress__bar" style={{ width: `${Math.round(progress * 100)}%` }} />
          </div>
          <p className="processing__message" aria-live="polite">
            {PROCESSING_MESSAGES[messageIndex]}
          </p>
        </>
      )}
    </section>
  );
}
