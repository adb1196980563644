import { useId } from 'react';

/** Digits of the one-time codes we email (sign-in and cancellation). */
export const EMAIL_CODE_LENGTH = 6;

export function isCompleteCode(code: string): boolean {
  return new RegExp(`^\\d{${EMAIL_CODE_LENGTH}}$`).test(code);
}

/** A numeric one-time-code input that keeps digits only; the browser may autofill it from the email. */
export function CodeField({ label, value, onChange }: { label: string; value: string; onChange: (code: string) => void }) {
  const id = useId();
  return (
    <label className="field" htmlFor={id}>
      <span className="field__label">{label}</span>
      <input
        id={id}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={EMAIL_CODE_LENGTH}
        value={value}
        onChange={(event) => onChange(event.target.value.replace(/\D/g, ''))}
      />
    </label>
  );
}
