import { compactAttribution, type Attribution } from '@roots/contracts/events';
import { readSessionValue } from './session-keys';

/** URL parameters copied into the attribution record (product-spec §3). */
const ATTRIBUTION_PARAMS = [
  'campaign_id',
  'campaign_name',
  'adset_id',
  'adset_name',
  'ad_id',
  'ad_name',
  'media_source',
  'config',
  'country_code',
  'idfm',
] as const;

/**
 * The longest value the server's attribution schema takes (contracts/events.ts). A longer one (a
 * long referrer) is cut to it, so the record can never make a purchase request invalid.
 */
const ATTRIBUTION_VALUE_MAX_CHARS = 2_000;

function cookie(name: string, cookies: string): string {
  return (
    cookies
      .split('; ')
      .find((c) => c.startsWith(`${name}=`))
      ?.slice(name.length + 1) ?? ''
  );
}

/**
 * The attribution record from the landing URL, cookies and stored referrer; empty values dropped.
 * `fbc` comes from the `_fbc` cookie or is built from `fbclid` the way the pixel builds it. Values
 * are cut to the schema's ATTRIBUTION_VALUE_MAX_CHARS.
 */
export function buildAttribution(input: {
  slug: string;
  url: string;
  userAgent: string;
  cookies: string;
  referrer: string;
  nowMs: number;
}): Attribution {
  const url = new URL(input.url);
  const record: Record<string, string> = { project: input.slug };
  for (const param of ATTRIBUTION_PARAMS) record[param] = url.searchParams.get(param) ?? '';
  const fbclid = url.searchParams.get('fbclid');
  record.fbc = cookie('_fbc', input.cookies) || (fbclid ? `fb.1.${input.nowMs}.${fbclid}` : '');
  record.fbp = cookie('_fbp', input.cookies);
  record.referer = input.referrer;
  record.event_source_url = `${url.origin}${url.pathname}`;
  record.client_user_agent = input.userAgent;
  for (const [key, value] of Object.entries(record)) record[key] = value.slice(0, ATTRIBUTION_VALUE_MAX_CHARS);
  return compactAttribution(record);
}

/** This visit's attribution record: sent with every purchase (product-spec §7) and, when tracking is on, every funnel event. */
export function currentAttribution(slug: string): Attribution {
  return buildAttribution({
    slug,
    url: window.location.href,
    userAgent: navigator.userAgent,
    cookies: document.cookie,
    referrer: readSessionValue('referrer') ?? '',
    nowMs: Date.now(),
  });
}

/** Sends one funnel event to POST /event; never throws, never blocks navigation. */
export function sendEvent(slug: string, event: string, extra: { subscription_id?: string } = {}): void {
  const campaign = currentAttribution(slug);
  void fetch('/event', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ event, userAgent: navigator.userAgent, campaign, ...extra }),
    keepalive: true,
  }).catch(() => undefined);
}

/** `POST /subscriptions/{id}` with this visit's attribution as a text body; never throws. */
export function sendSubscriptionTracking(slug: string, subscriptionId: string): void {
  void fetch(`/subscriptions/${encodeURIComponent(subscriptionId)}`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: JSON.stringify(currentAttribution(slug)),
    keepalive: true,
  }).catch(() => undefined);
}
