import { useTranslation } from 'react-i18next';

/** The take-a-photo tip screen: lighting must be natural; open the camera or upload. */
export function CameraTipStep({ onOpenCamera, onUpload, onBack }: { onOpenCamera: () => void; onUpload: () => void; onBack: () => void }) {
  const { t } = useTranslation();
  const tips = t('screens.onboarding.cameraTips', { returnObjects: true }) as string[];
  return (
    <section className="step camera-tip">
      <h1 className="screen__title">{t('screens.onboarding.cameraTipTitle')}</h1>
      <p className="attention" role="note">
        {t('messages.cameraTipLighting')}
      </p>
      <ul>
        {tips.map((tip) => (
          <li key={tip}>{tip}</li>
        ))}
      </ul>
      <button type="button" className="button button--primary" onClick={onOpenCamera}>
        {t('screens.onboarding.openCamera')}
      </button>
      <button type="button" className="button button--secondary" onClick={onUpload}>
        {t('screens.onboarding.uploadInstead')}
      </button>
      <button type="button" className="button button--link" onClick={onBack}>
        {t('screens.onboarding.back')}
      </button>
    </section>
  );
}
