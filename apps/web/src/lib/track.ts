import type { FunnelVariant, Visit } from '@roots/contracts/events';
import { SESSION_KEYS } from './session-keys';

/** Session flag remembering that this visit came with wmq=1 (product-spec §2: wmq=1 enables tracking). */
const TRACKING_FLAG = '__wmq';
/** Session value holding the tracked visit: its id and the variant it started in (JSON). */
const VISIT_KEY = '__visit';

/**
 * Funnel stage events of product-spec §3 the page sends. The purchase events (Purchase,
 * One-timePurchase, …) are not among them: the server records each once, with the purchase it
 * verified (issue 14: the page posting them again counted every sale twice).
 */
export type FunnelEvent =
  | 'intro'
  | 'onboarding'
  | 'camera tip'
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
  | 'waiting for redirect response';

/** Whether this deployment tracks at all (TRACKING_ENABLED); set once at start-up. */
let deploymentTracks = false;
/**
 * Whether this page load belongs to a tracked visit (wmq=1 now or earlier in the session). Kept in
 * memory too: finalize clears session storage (product-spec §4), and the signed-in stages after it
 * ('results', 'report ready') are still the same visit.
 */
let visitTracks = false;
/**
 * The tracked visit every event names (issue 25): drawn at the visit's first load, kept through
 * reloads in session storage and in memory after finalize clears it. The console counts visits by
 * its id, and credits each to the variant recorded here at the start, whatever URL an event is sent from.
 */
let visit: Visit | null = null;

/** The landing variant a load of `location` starts: the quiz under `/{slug}/quiz`, the walkthrough otherwise. */
export function variantOf(location: Pick<Location, 'pathname'>): FunnelVariant {
  return /\/quiz\/?$/.test(location.pathname ?? '') ? 'quiz' : 'walkthrough';
}

function storedVisit(): Visit | null {
  try {
    const parsed = JSON.parse(sessionStorage.getItem(VISIT_KEY) ?? 'null') as Partial<Visit> | null;
    return typeof parsed?.id === 'string' && (parsed.variant === 'quiz' || parsed.variant === 'walkthrough')
      ? { id: parsed.id, variant: parsed.variant }
      : null;
  } catch {
    return null;
  }
}

/** This load's tracked visit: the stored one, or a new one starting in this load's variant. */
function startVisit(location: Location): Visit {
  const current = visit ?? storedVisit() ?? { id: crypto.randomUUID(), variant: variantOf(location) };
  try {
    sessionStorage.setItem(VISIT_KEY, JSON.stringify(current));
  } catch {
    // storage unavailable: the visit lasts as long as this load
  }
  return current;
}

/**
 * Remembers wmq=1 for the visit and keeps a referrer from another host under `_ref`.
 * Called once at start-up with the deployment's TRACKING_ENABLED: when it is false, nothing is
 * ever sent, whatever the URL says.
 */
export function initTracking(enabled: boolean, location: Location = window.location, referrer = document.referrer): void {
  deploymentTracks = enabled;
  visitTracks = new URLSearchParams(location.search).get('wmq') === '1';
  try {
    if (visitTracks) sessionStorage.setItem(TRACKING_FLAG, '1');
    else visitTracks = sessionStorage.getItem(TRACKING_FLAG) === '1';
    if (referrer && new URL(referrer).host !== location.host) sessionStorage.setItem(SESSION_KEYS.referrer, referrer);
  } catch {
    // storage unavailable: only a load with wmq=1 in its URL tracks
  }
  if (deploymentTracks && visitTracks) visit = startVisit(location);
}

/** Tracking is on when the deployment tracks (TRACKING_ENABLED) and this visit came with wmq=1. */
export function trackingEnabled(): boolean {
  if (!deploymentTracks) return false;
  if (visitTracks) return true;
  try {
    return sessionStorage.getItem(TRACKING_FLAG) === '1';
  } catch {
    return false;
  }
}

/** Sends a funnel event when tracking is on; the sender loads only then. */
export function track(slug: string, event: FunnelEvent, extra?: { subscription_id?: string }): void {
  if (!trackingEnabled()) return;
  const extras = { ...extra, ...(visit ? { visit } : {}) };
  void import('./tracking').then(({ sendEvent }) => sendEvent(slug, event, extras));
}

/** Product-spec §4: after a purchase, with tracking on, the page gives the tracking call this long before it moves on. */
export const TRACKING_WAIT_AFTER_PURCHASE_MS = 1_500;

/**
 * After a purchase, when tracking is on: `POST /subscriptions/{id}` (the tracking service's call of
 * product-spec §7, text body: this visit's attribution as JSON), then the 1500 ms product-spec §4
 * gives tracking before the page moves on. Never throws.
 */
export async function trackPurchase(slug: string, subscriptionId: string): Promise<void> {
  if (!trackingEnabled()) return;
  try {
    const { sendSubscriptionTracking } = await import('./tracking');
    sendSubscriptionTracking(slug, subscriptionId, visit);
  } catch {
    // tracking never blocks a purchase
  }
  await new Promise((resolve) => setTimeout(resolve, TRACKING_WAIT_AFTER_PURCHASE_MS));
}
