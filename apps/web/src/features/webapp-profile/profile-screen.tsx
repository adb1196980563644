import { zodResolver } from '@hookform/resolvers/zod';
import { profileSchema, type Profile, type ProfileResponse } from '@roots/contracts/account';
import { useCallback, useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { isSignedOutError, useSignedIn, useSignOutToSignIn } from '../../lib/auth-guard';
import { errorFromResponse, FALLBACK_ERROR, RequestError } from '../../lib/http';

/** Profile (product-spec §2): name, date and time of birth, Update. */
export function ProfileScreen() {
  const { t } = useTranslation();
  const me = useSignedIn();
  const toSignIn = useSignOutToSignIn();
  const [status, setStatus] = useState<string | null>(null);
  const { register, handleSubmit, reset, formState } = useForm<Profile>({ resolver: zodResolver(profileSchema) });

  // The server's 401 (session ended, user disabled) signs out; other failures are shown.
  const failed = useCallback(
    (reason: unknown) => {
      if (isSignedOutError(reason)) void toSignIn();
      else setStatus(reason instanceof RequestError ? reason.message : FALLBACK_ERROR);
    },
    [toSignIn],
  );

  useEffect(() => {
    if (!me) return;
    let active = true;
    void fetch('/api/account/profile')
      .then(async (response) => {
        if (!response.ok) throw await errorFromResponse(response);
        return (await response.json()) as ProfileResponse;
      })
      .then(
        (profile) => {
          if (active) reset({ name: profile.name ?? '', birth_date: profile.birth_date ?? '', birth_time: profile.birth_time ?? '' });
        },
        (reason: unknown) => {
          if (active) failed(reason);
        },
      );
    return () => {
      active = false;
    };
  }, [me, reset, failed]);

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
          <button type="submit" className="button" disabled={formState.isSubmitting}>
            {t('webapp.profile.update')}
          </button>
          {status && <p role="status">{status}</p>}
        </form>
      )}
    </main>
  );
}
