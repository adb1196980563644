import { EMAIL_CODE_LENGTH } from '@roots/contracts/auth';
import { useId, useState, type ReactNode } from 'react';

function isCompleteCode(code: string): boolean {
  return new RegExp(`^\\d{${EMAIL_CODE_LENGTH}}$`).test(code);
}

/** A numeric one-time-code input that keeps digits only; the browser may autofill it from the email. */
function CodeField({ label, value, onChange }: { label: string; value: string; onChange: (code: string) => void }) {
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

type CodeFormProps = {
  label: string;
  submitLabel: string;
  busy: boolean;
  /** Called with a complete code only. */
  onSubmit: (code: string) => void;
  /** Called instead when the code is not EMAIL_CODE_LENGTH digits (the screen shows 'Fill in the field'). */
  onIncomplete: () => void;
  /** Shown above the field: where the code was sent. */
  children?: ReactNode;
};

/** The step after an emailed one-time code was sent (sign-in, access recovery, cancellation): the code and its submit. */
export function CodeForm({ label, submitLabel, busy, onSubmit, onIncomplete, children }: CodeFormProps) {
  const [code, setCode] = useState('');
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (isCompleteCode(code)) onSubmit(code);
        else onIncomplete();
      }}
    >
      {children}
      <CodeField label={label} value={code} onChange={setCode} />
      <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy || undefined}>
        {busy ? 'Loading' : submitLabel}
      </button>
    </form>
  );
}
