import { SESSION_KEYS } from './session-keys';

/** Session flag remembering that this visit came with wmq=1 (product-spec §2: wmq=1 enables tracking). */
const TRACKING_FLAG = '__wmq';

/** Funnel stage events of product-spec §3. */
export type FunnelEvent =
  | 'intro'
  | 'onboarding'
  | 'selfie'
  | 'selfie processing'
  | 'e-mail screen'
  | 'subscription offer'
  | 'payment modal'
  | 'purchase error'
  | 'offers'
  | 'account'
  | 'results'
  | 'report ready'
  | 'waiting for redirect response'
  | 'CompleteRegistration'
  | 'Purchase'
  | 'AllPurchase'
  | 'One-timePurchase'
  | 'Full plan sale purchase';

/**
 * Remembers wmq=1 for the visit and keeps a referrer from another host under `_ref`.
 * Called once at start-up.
 */
export function initTracking(location: Location = window.location, referrer = document.referrer): void {
  try {
    if (new URLSearchParams(location.search).get('wmq') === '1') sessionStorage.setItem(TRACKING_FLAG, '1');
    if (referrer && new URL(referrer).host !== location.host) sessionStorage.setItem(SESSION_KEYS.referrer, referrer);
  } catch {
    // storage unavailable: tracking stays off
  }
}

export function trackingEnabled(): boolean {
  try {
    return sessionStorage.getItem(TRACKING_FLAG) === '1';
  } catch {
    return false;
  }
}

/** Sends a funnel event when tracking is on; the sender loads only then. */
export function track(slug: string, event: FunnelEvent, extra?: { value?: number; subscription_id?: string }): void {
  if (!trackingEnabled()) return;
  void import('./tracking').then(({ sendEvent }) => sendEvent(slug, event, extra));
}
