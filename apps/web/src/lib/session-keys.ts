/**
 * Browser storage keys of product-spec §3: session keys prefixed with two underscores, the quiz
 * email, the referrer, and the redirect-wait flag. One place so no screen spells them twice.
 * `selfieTaken` is a flag ('1') that this tab's funnel took a selfie: never the photo, which lives
 * in the tab's memory only and is gone after a reload (ADR 145).
 */
export const SESSION_KEYS = {
  userEmail: '__userEmail',
  subscriptionId: '__subscriptionId',
  url: '__url',
  userQuizEmail: 'userQuizEmail',
  referrer: '_ref',
  selfieTaken: '__selfieTaken',
} as const;
export const LOCAL_KEYS = { waitingForRedirectResponse: 'waitingForRedirectResponse' } as const;

function safeSession(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null; // storage disabled (private mode, embedded browsers)
  }
}

export function readQuizEmail(): string {
  return safeSession()?.getItem(SESSION_KEYS.userQuizEmail) ?? '';
}

export function storeQuizEmail(email: string): void {
  safeSession()?.setItem(SESSION_KEYS.userQuizEmail, email);
}

export function readSessionValue(key: keyof typeof SESSION_KEYS): string | null {
  return safeSession()?.getItem(SESSION_KEYS[key]) ?? null;
}

export function writeSessionValue(key: keyof typeof SESSION_KEYS, value: string): void {
  safeSession()?.setItem(SESSION_KEYS[key], value);
}
