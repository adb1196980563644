import { compactAttribution, type Attribution, type Visit } from '@roots/contracts/events';
import { loadRemoteAddr, remoteAddr, type RemoteAddr } from './remote-addr';
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
 * The attribution record from the landing URL, cookies, stored referrer and the server's
 * `GET /remote-addr` answer; empty values dropped. `fbc` comes from the `_fbc` cookie or is built
 * from `fbclid` the way the pixel builds it. `client_ip_address` and `country_code` are what the
 * server saw (a `country_code` URL parameter only stands in while the country is unknown). Values
 * are cut to the schema's ATTRIBUTION_VALUE_MAX_CHARS.
 */
export function buildAttribution(input: {
  slug: string;
  url: string;
  userAgent: string;
  cookies: string;
  referrer: string;
  nowMs: number;
  remote?: RemoteAddr | null;
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
  record.client_ip_address = input.remote?.ip ?? '';
  if (input.remote?.country) record.country_code = input.remote.country;
  for (const [key, value] of Object.entries(record)) record[key] = value.slice(0, ATTRIBUTION_VALUE_MAX_CHARS);
  return compactAttribution(record);
}

/**
 * This visit's attribution record: sent with every purchase (product-spec §7) and, when tracking is
 * on, every funnel event. Carries the `/remote-addr` answer once it came (asked at start-up).
 */
export function currentAttribution(slug: string): Attribution {
  return buildAttribution({
    slug,
    url: window.location.href,
    userAgent: navigator.userAgent,
    cookies: document.cookie,
    referrer: readSessionValue('referrer') ?? '',
    nowMs: Date.now(),
    remote: remoteAddr(),
  });
}

/** {@link currentAttribution} after the `/remote-addr` answer (or its failure): what a purchase sends. */
export async function loadAttribution(slug: string): Promise<Attribution> {
  await loadRemoteAddr();
  return currentAttribution(slug);
}

/** Sends one funnel event to POST /event, with its visit; never throws, never blocks navigation. */
export function sendEvent(slug: string, event: string, extra: { subscription_id?: string; visit?: Visit } = {}): void {
  void loadAttribution(slug)
    .then((campaign) =>
      fetch('/event', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ event, userAgent: navigator.userAgent, campaign, ...extra }),
        keepalive: true,
      }),
    )
    .catch(() => undefined);
}

/**
 * `POST /subscriptions/{id}` with this visit's attribution as a text body (JSON), and the visit beside
 * it so the console counts the purchase for this visit; never throws.
 */
export function sendSubscriptionTracking(slug: string, subscriptionId: string, visit: Visit | null = null): void {
  void loadAttribution(slug)
    .then((attribution) =>
      fetch(`/subscriptions/${encodeURIComponent(subscriptionId)}`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify(visit ? { ...attribution, visit } : attribution),
        keepalive: true,
      }),
    )
    .catch(() => undefined);
}
