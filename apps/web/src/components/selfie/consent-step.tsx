import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Separate, unticked consents before any camera access: face analysis for visual resemblance, and 18+.
 * Without both, no photo can be taken.
 */
export function ConsentStep({ onConsent, onBack }: { onConsent: () => void; onBack: () => void }) {
  const { t } = useTranslation();
  const [analysis, setAnalysis] = useState(false);
  const [adult, setAdult] = useState(false);
  const both = analysis && adult;
  return (
    <section className="step consent">
      <h1 className="screen__title">{t('screens.onboarding.consentTitle')}</h1>
      <label className="checkbox">
        <input type="checkbox" checked={analysis} onChange={(e) => setAnalysis(e.target.checked)} name="consent-analysis" />
        <span>{t('screens.onboarding.consentAnalysis')}</span>
      </label>
      <label className="checkbox">
        <input type="checkbox" checked={adult} onChange={(e) => setAdult(e.target.checked)} name="consent-age" />
        <span>{t('screens.onboarding.consentAge')}</span>
      </label>
      {!both && (
        <p className="hint" id="consent-hint">
          {t('screens.onboarding.consentHint')}
        </p>
      )}
      <button
        type="button"
        className="button button--primary"
        disabled={!both}
        aria-describedby={both ? undefined : 'consent-hint'}
        onClick={onConsent}
      >
        {t('screens.onboarding.continue')}
      </button>
      <button type="button" className="button button--link" onClick={onBack}>
        {t('screens.onboarding.back')}
      </button>
    </section>
  );
}
