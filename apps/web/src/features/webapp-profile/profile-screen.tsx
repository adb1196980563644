import { zodResolver } from '@hookform/resolvers/zod';
import { profileSchema, type Profile } from '@roots/contracts/account';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useRequestFailure, useSignedIn } from '../../lib/auth-guard';
import { saveProfile } from './api/save-profile';
import { getProfile } from '../../lib/webapp-api';

/** Profile (product-spec §2): name, date and time of birth, Update. */
export function ProfileScreen() {
  const { t } = useTranslation();
  const me = useSignedIn();
  const [status, setStatus] = useState<string | null>(null);
  const failed = useRequestFailure(setStatus);
  const { register, handleSubmit, reset, formState } = useForm<Profile>({ resolver: zodResolver(profileSchema) });

  // The form starts from the saved profile once the session is known.
  useEffect(() => {
    if (!me) return;
    const controller = new AbortController();
    getProfile(controller.signal).then(
      (profile) => reset({ name: profile.name ?? '', birth_date: profile.birth_date ?? '', birth_time: profile.birth_time ?? '' }),
      (reason: unknown) => !controller.signal.aborted && failed(reason),
    );
    return () => controller.abort();
  }, [me, reset, failed]);

  const save = async (profile: Profile) => {
    setStatus(null);
    try {
      await saveProfile(profile);
      setStatus(t('webapp.profile.saved'));
    } catch (reason) {
      failed(reason);
    }
  };

  const { errors } = formState;
  return (
    <main className="screen profile" data-testid="profile-screen">
      <h1 className="screen__title">{t('screens.titles.profile')}</h1>
      {me && (
        <form noValidate onSubmit={handleSubmit(save)}>
          <label className="field" htmlFor="profile-name">
            <span className="field__label">{t('webapp.profile.name')}</span>
            <input id="profile-name" autoComplete="name" {...register('name')} aria-invalid={!!errors.name} />
            {errors.name && <span role="alert">{errors.name.message}</span>}
          </label>
          <label className="field" htmlFor="profile-birth-date">
            <span className="field__label">{t('webapp.profile.birthDate')}</span>
            <input id="profile-birth-date" type="date" {...register('birth_date')} aria-invalid={!!errors.birth_date} />
            {errors.birth_date && <span role="alert">{errors.birth_date.message}</span>}
          </label>
          <label className="field" htmlFor="profile-birth-time">
            <span className="field__label">{t('webapp.profile.birthTime')}</span>
            <input id="profile-birth-time" type="time" {...register('birth_time')} aria-invalid={!!errors.birth_time} />
            {errors.birth_time && <span role="alert">{errors.birth_time.message}</span>}
          </label>
          <button type="submit" className="button button--primary" disabled={formState.isSubmitting}>
            {t('webapp.profile.update')}
          </button>
          {status && <p role="status">{status}</p>}
        </form>
      )}
      {me && (
        // GDPR Art. 15/20: everything we keep about the customer, as a JSON file.
        <p>
          <a href="/api/account/export" download="my-data.json" data-testid="download-my-data">
            {t('webapp.profile.downloadData')}
          </a>
        </p>
      )}
    </main>
  );
}
