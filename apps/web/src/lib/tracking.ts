import { compactAttribution, type Attribution } from '@roots/contracts/events';
import { SESSION_KEYS } from './session-keys';

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
 * `fbc` comes from the `_fbc` cookie or is built from `fbclid` the way the pixel builds it.
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
  return compactAttribution(record);
}

/** Sends one funnel event to POST /event; never throws, never blocks navigation. */
export function sendEvent(slug: string, event: string, extra: { value?: number; subscription_id?: string } = {}): void {
  const campaign = buildAttribution({
    slug,
    url: window.location.href,
    userAgent: navigator.userAgent,
    cookies: document.cookie,
    referrer: sessionStorage.getItem(SESSION_KEYS.referrer) ?? '',
    nowMs: Date.now(),
  });
  void fetch('/event', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ event, userAgent: navigator.userAgent, campaign, ...extra }),
    keepalive: true,
  }).catch(() => undefined);
}
