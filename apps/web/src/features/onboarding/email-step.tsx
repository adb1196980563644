import { zodResolver } from '@hookform/resolvers/zod';
import { emailFormSchema, type EmailForm } from '@roots/contracts/forms';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';

/** Email capture with the validation messages of product-spec §5 and §8. */
export function EmailStep({ defaultEmail, onSubmit }: { defaultEmail: string; onSubmit: (email: string) => void }) {
  const { t } = useTranslation();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<EmailForm>({ resolver: zodResolver(emailFormSchema), defaultValues: { email: defaultEmail }, mode: 'onTouched' });
  return (
    <section className="step email">
      <h1 className="screen__title">{t('screens.onboarding.emailTitle')}</h1>
      <form noValidate onSubmit={handleSubmit(({ email }) => onSubmit(email))}>
        <label className="field" htmlFor="email">
          <span className="field__label">{t('screens.onboarding.emailLabel')}</span>
          <input
            id="email"
            type="email"
            autoComplete="email"
            inputMode="email"
            placeholder={t('screens.onboarding.emailPlaceholder')}
            aria-invalid={errors.email ? true : undefined}
            aria-describedby={errors.email ? 'email-error' : undefined}
            {...register('email')}
          />
        </label>
        {errors.email && (
          <p className="field-error" id="email-error" role="alert">
            {errors.email.message}
          </p>
        )}
        <p className="hint">{t('screens.onboarding.emailPrivacy')}</p>
        <button type="submit" className="button button--primary">
          {t('screens.onboarding.emailSubmit')}
        </button>
      </form>
    </section>
  );
}
