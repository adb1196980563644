import { useState } from 'react';
import { errorMessage } from './api-client';

/**
 * A form's request: `busy` while `run(action)` is under way, and `error` — the server's message,
 * else 'Something went wrong' — when the action throws. `setError` shows a message of the form's own.
 * @example const { busy, error, run } = useAction(); <EmailForm busy={busy} onSubmit={(email) => run(() => sendEmailCode(email))} />
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (reason) {
      setError(errorMessage(reason));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, run };
}
