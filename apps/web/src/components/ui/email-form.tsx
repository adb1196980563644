import { zodResolver } from '@hookform/resolvers/zod';
import { emailFormSchema, type EmailForm as EmailFormValues } from '@roots/contracts/forms';
import { useId, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';

type EmailFormProps = {
  label: string;
  submitLabel: string;
  placeholder?: string;
  defaultEmail?: string;
  busy?: boolean;
  /** Shown under the field (privacy note, server error…). */
  children?: ReactNode;
  onSubmit: (email: string) => void | Promise<void>;
};

/** One email field with the product-spec §5 messages, used by the funnel and the cancel pages. */
export function EmailForm({ label, submitLabel, placeholder, defaultEmail = '', busy = false, children, onSubmit }: EmailFormProps) {
  const id = useId();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<EmailFormValues>({ resolver: zodResolver(emailFormSchema), defaultValues: { email: defaultEmail }, mode: 'onTouched' });
  return (
    <form noValidate onSubmit={handleSubmit(({ email }) => onSubmit(email))}>
      <label className="field" htmlFor={`${id}-email`}>
        <span className="field__label">{label}</span>
        <input
          id={`${id}-email`}
          type="email"
          autoComplete="email"
          inputMode="email"
          placeholder={placeholder}
          aria-invalid={errors.email ? true : undefined}
          aria-describedby={errors.email ? `${id}-error` : undefined}
          {...register('email')}
        />
      </label>
      {errors.email && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {errors.email.message}
        </p>
      )}
      {children}
      <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy || undefined}>
        {busy ? 'Loading' : submitLabel}
      </button>
    </form>
  );
}
