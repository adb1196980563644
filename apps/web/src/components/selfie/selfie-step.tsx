import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { compressFrame, compressImageFile } from '../../lib/image-compression';
import type { Selfie } from '../../lib/onboarding-store';

type Mode = 'camera' | 'upload';

/**
 * Front camera with a face guide, capture and retake; falls back to a file upload when there is no
 * camera or permission is refused. The photo is compressed to webp 0.7 and stays in the browser.
 */
export function SelfieStep({ initialMode, onPhoto, onBack }: { initialMode: Mode; onPhoto: (selfie: Selfie) => void; onBack: () => void }) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<Mode>(initialMode);
  const [cameraFailed, setCameraFailed] = useState(false);
  const [captured, setCaptured] = useState<Selfie | null>(null);
  const [fileError, setFileError] = useState(false);
  const videoRef = useRef<HTMLVideoElement>(null);

  useEffect(() => {
    if (mode !== 'camera' || captured) return;
    let stream: MediaStream | null = null;
    let cancelled = false;
    const fail = () => {
      setCameraFailed(true);
      setMode('upload');
    };
    if (!navigator.mediaDevices?.getUserMedia) {
      fail();
      return;
    }
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: 'user', width: { ideal: 1280 }, height: { ideal: 960 } }, audio: false })
      .then((media) => {
        if (cancelled) return media.getTracks().forEach((track) => track.stop());
        stream = media;
        const video = videoRef.current;
        if (video) {
          video.srcObject = media;
          void video.play().catch(() => undefined);
        }
      })
      .catch(() => !cancelled && fail());
    return () => {
      cancelled = true;
      stream?.getTracks().forEach((track) => track.stop());
    };
  }, [mode, captured]);

  const keep = ({ blob, width, height }: { blob: Blob; width: number; height: number }) =>
    setCaptured({ blob, width, height, previewUrl: URL.createObjectURL(blob) });

  const capture = async () => {
    const video = videoRef.current;
    if (!video || !video.videoWidth) return;
    keep(await compressFrame(video, video.videoWidth, video.videoHeight, { mirror: true }));
  };

  const upload = async (file: File | undefined) => {
    if (!file) return;
    setFileError(false);
    try {
      keep(await compressImageFile(file));
    } catch {
      setFileError(true);
    }
  };

  const retake = () => {
    if (captured) URL.revokeObjectURL(captured.previewUrl);
    setCaptured(null);
  };

  return (
    <section className="step selfie">
      <h1 className="screen__title">{t('screens.onboarding.selfieTitle')}</h1>
      {captured ? (
        <>
          <img className="selfie__preview" src={captured.previewUrl} alt={t('screens.onboarding.photoPreviewAlt')} />
          <button type="button" className="button button--primary" onClick={() => onPhoto(captured)}>
            {t('screens.onboarding.usePhoto')}
          </button>
          <button type="button" className="button button--secondary" onClick={retake}>
            {t('screens.onboarding.retake')}
          </button>
        </>
      ) : mode === 'camera' ? (
        <>
          <div className="selfie__viewport">
            <video ref={videoRef} className="selfie__video" playsInline muted autoPlay aria-label={t('screens.onboarding.selfieTitle')} />
            <img className="selfie__guide" src="images/face-guide.svg" alt="" />
          </div>
          <p className="attention">{t('messages.cameraTipLighting')}</p>
          <button type="button" className="button button--primary" onClick={() => void capture()}>
            {t('screens.onboarding.capture')}
          </button>
          <button type="button" className="button button--link" onClick={() => setMode('upload')}>
            {t('screens.onboarding.uploadInstead')}
          </button>
        </>
      ) : (
        <>
          {cameraFailed && (
            <p className="notice" role="status">
              {t('screens.onboarding.cameraUnavailable')}
            </p>
          )}
          <label className="button button--primary file-picker">
            {t('screens.onboarding.choosePhoto')}
            <input
              type="file"
              accept="image/*"
              capture="user"
              className="visually-hidden"
              onChange={(e) => void upload(e.target.files?.[0])}
              data-testid="selfie-file"
            />
          </label>
          {fileError && (
            <p className="field-error" role="alert">
              {t('screens.onboarding.photoUnreadable')}
            </p>
          )}
        </>
      )}
      <button type="button" className="button button--link" onClick={onBack}>
        {t('screens.onboarding.back')}
      </button>
    </section>
  );
}
