import { zodResolver } from '@hookform/resolvers/zod';
import { profileSchema, type Profile, type ProfileResponse } from '@roots/contracts/account';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSignedIn } from '../../lib/auth-guard';
import { errorFromResponse, FALLBACK_ERROR, RequestError } from '../../lib/http';

/** Profile (product-spec §2): name, date and time of birth, Update. */
export function ProfileScreen() {
  const { t } = useTranslation();
  const me = useSignedIn();
  const [status, setStatus] = useState<string | null>(null);
  const { register, handleSubmit, reset, formState } = useForm<Profile>({ resolver: zodResolver(profileSchema) });

  useEffect(() => {
    if (!me) return;
    void fetch('/api/account/profile')
      .then((response) => response.json() as Promise<ProfileResponse>)
      .then((profile) => reset({ name: profile.name ?? '', birth_date: profile.birth_date ?? '', birth_time: profile.birth_time ?? '' }));
  }, [me, reset]);

  const save = async (profile: Profile) => {
    setStatus(null);
    try {
      const response = await fetch('/api/account/profile', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(profile),
      });
      if (!response.ok) throw await errorFromResponse(response);
      setStatus(t('webapp.profile.saved'));
    } catch (reason) {
      setStatus(reason instanceof RequestError ? reason.message : FALLBACK_ERROR);
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
          <button type="submit" className="button" disabled={formState.isSubmitting}>
            {t('webapp.profile.update')}
          </button>
          {status && <p role="status">{status}</p>}
        </form>
      )}
    </main>
  );
}
