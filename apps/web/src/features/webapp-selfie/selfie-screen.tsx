import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { nextCaptureStep, type CaptureEvent, type CaptureStep } from '../../components/selfie/capture-steps';
import { CaptureView } from '../../components/selfie/capture-view';
import { useRequestFailure, useSignedIn } from '../../lib/auth-guard';
import { createReport } from '../../lib/create-report';
import type { Selfie } from '../../lib/onboarding-store';
import { productPath, ROUTE_PATHS } from '../../lib/paths';
import { usePublicConfig } from '../../lib/public-config-context';
import { includesReports } from '../../lib/report-rights';

/** The capture's steps, then the report's creation (the photo's one trip to report/create). */
export type SelfieScreenStep = CaptureStep | 'creating';

/**
 * 'Take a selfie' (`/{slug}/webapp/selfie`, ADR 145): a signed-in customer whose purchase includes
 * reports takes the selfie in the app, with the funnel's consents, camera or upload and quality
 * check (the same screens). The photo stays in this screen's memory; report/create sends it without
 * an email, the session being the proof, and the server makes the report under the customer's
 * newest purchase with reports. My Ethnicity then shows it being made, and the report.
 */
export function SelfieScreen() {
  const { t } = useTranslation();
  const { slug } = usePublicConfig();
  const navigate = useNavigate();
  const me = useSignedIn();
  const [step, setStep] = useState<SelfieScreenStep>('consent');
  const [selfie, setSelfie] = useState<Selfie | null>(null);
  const [error, setError] = useState<string | null>(null);
  const fail = useRequestFailure(setError);
  const home = productPath(slug, ROUTE_PATHS.webapp);

  // Each photo's preview URL is released once it is replaced or the screen closes (choosing a face
  // in a group photo keeps the photo, and its preview).
  const previewUrl = selfie?.previewUrl;
  useEffect(() => {
    if (!previewUrl) return;
    return () => URL.revokeObjectURL(previewUrl);
  }, [previewUrl]);

  const send = (event: CaptureEvent) => {
    if (step === 'creating') return;
    const next = nextCaptureStep(step, event);
    if (next === 'left') void navigate(home);
    else if (next !== 'accepted') setStep(next);
  };

  const create = useCallback(() => {
    if (!selfie) return;
    setStep('creating');
    setError(null);
    createReport({ signedIn: true }, selfie.blob, selfie.face).then(
      ({ report_id: reportId }) => navigate(productPath(slug, ROUTE_PATHS.myEthnicity.replace(':reportId', reportId)), { replace: true }),
      fail,
    );
  }, [selfie, fail, navigate, slug]);

  let body: ReactNode;
  if (!me) {
    body = <p role="status">{t('webapp.loading')}</p>;
  } else if (!includesReports(me.access)) {
    body = (
      <div data-testid="selfie-not-included">
        <h1 className="screen__title">{t('screens.titles.selfie')}</h1>
        <p>{t('webapp.selfie.notIncluded')}</p>
      </div>
    );
  } else if (step === 'creating') {
    body = (
      <section className="step">
        <h1 className="screen__title">{t('screens.titles.selfie')}</h1>
        {error ? (
          <div role="alert">
            <p>{t('webapp.selfie.failed', { message: error })}</p>
            <button type="button" className="button button--primary" onClick={create}>
              {t('webapp.selfie.tryAgain')}
            </button>
            <button type="button" className="button button--secondary" onClick={() => setStep('selfie')}>
              {t('screens.onboarding.retake')}
            </button>
          </div>
        ) : (
          <p role="status">{t('webapp.selfie.creating')}</p>
        )}
      </section>
    );
  } else {
    body = <CaptureView step={step} selfie={selfie} send={send} onPhoto={setSelfie} onAccepted={create} />;
  }

  return (
    <main className="screen onboarding selfie-screen" data-testid="selfie-screen" data-step={step}>
      {body}
      <Link to={home}>{t('webapp.myEthnicity.toHome')}</Link>
    </main>
  );
}
