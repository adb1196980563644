import { useTranslation } from 'react-i18next';
import { EmailForm } from '../../components/ui/email-form';

/** Email capture with the validation messages of product-spec §5 and §8. */
export function EmailStep({ defaultEmail, onSubmit }: { defaultEmail: string; onSubmit: (email: string) => void }) {
  const { t } = useTranslation();
  return (
    <section className="step email">
      <h1 className="screen__title">{t('screens.onboarding.emailTitle')}</h1>
      <EmailForm
        label={t('screens.onboarding.emailLabel')}
        submitLabel={t('screens.onboarding.emailSubmit')}
        placeholder={t('screens.onboarding.emailPlaceholder')}
        defaultEmail={defaultEmail}
        onSubmit={onSubmit}
      >
        <p className="hint">{t('screens.onboarding.emailPrivacy')}</p>
      </EmailForm>
    </section>
  );
}
