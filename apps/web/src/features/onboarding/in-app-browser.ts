import { UAParser } from 'ua-parser-js';

/** Where to send a visitor who must leave an Instagram/Facebook in-app browser (product-spec §2). */
export type InAppEscape =
  { kind: 'stay' } | { kind: 'redirect'; href: string; via: 'redirect-page' | 'chrome' | 'safari' | 'android-intent' };

export type InAppEscapeOptions = {
  /**
   * Page that bounces iOS ≤ 14 into Safari (it tries the Shortcuts x-error hand-off, then tells the
   * visitor how); receives the target in `url`. Also Android's fallback when no browser takes the intent.
   */
  externalRedirectPageUrl: string;
};

/**
 * An Android intent URL that opens `target` in the default browser (no package named, so Android
 * picks the user's default), with the redirect page as the fallback.
 * @example androidIntentUrl(new URL('https://a.example/x?y=1'), 'https://a.example/open')
 *   // 'intent://a.example/x?y=1#Intent;scheme=https;action=android.intent.action.VIEW;…;end'
 */
export function androidIntentUrl(target: URL, fallbackUrl: string): string {
  const scheme = target.protocol.replace(':', '');
  return (
    `intent://${target.host}${target.pathname}${target.search}#Intent;scheme=${scheme};` +
    `action=android.intent.action.VIEW;category=android.intent.category.BROWSABLE;` +
    `S.browser_fallback_url=${encodeURIComponent(fallbackUrl)};end`
  );
}

const IN_APP_NAMES = new Set(['Instagram', 'Facebook']);

/**
 * Decides the external-browser escape for `bb=true` (any OS) or `bb_android=true` (Android only):
 * iOS 14 or lower via the external redirect page, iOS 16 via Chrome, iOS 15 not redirected,
 * other iOS via the Safari scheme, Android via an intent URL to the default browser (ADR 101).
 */
export function inAppEscape(userAgent: string, pageUrl: string, search: URLSearchParams, options: InAppEscapeOptions): InAppEscape {
  const result = new UAParser(userAgent).getResult();
  if (!IN_APP_NAMES.has(result.browser.name ?? '')) return { kind: 'stay' };
  const os = result.os.name ?? '';
  const bb = search.get('bb') === 'true';
  const bbAndroid = search.get('bb_android') === 'true';
  // Drop the flags so the page opened outside does not try to escape again.
  const target = new URL(pageUrl);
  target.searchParams.delete('bb');
  target.searchParams.delete('bb_android');
  const withUrl = (base: string) => {
    const url = new URL(base, target.origin);
    url.searchParams.set('url', target.toString());
    return url.toString();
  };
  if (os === 'Android') {
    return bb || bbAndroid
      ? { kind: 'redirect', via: 'android-intent', href: androidIntentUrl(target, withUrl(options.externalRedirectPageUrl)) }
      : { kind: 'stay' };
  }
  if (os !== 'iOS' || !bb) return { kind: 'stay' };
  const major = Number.parseInt(result.os.version ?? '', 10);
  if (Number.isNaN(major)) return { kind: 'stay' };
  if (major <= 14) return { kind: 'redirect', via: 'redirect-page', href: withUrl(options.externalRedirectPageUrl) };
  if (major === 15) return { kind: 'stay' };
  if (major === 16)
    return {
      kind: 'redirect',
      via: 'chrome',
      href: target.toString().replace(/^https?:\/\//, (scheme) => (scheme === 'https://' ? 'googlechromes://' : 'googlechrome://')),
    };
  return { kind: 'redirect', via: 'safari', href: `x-safari-${target.toString()}` };
}
