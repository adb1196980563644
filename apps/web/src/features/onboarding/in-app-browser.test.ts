import { describe, expect, it } from 'vitest';
import { inAppEscape } from './in-app-browser';

const options = { externalRedirectPageUrl: '/roots/open-in-browser' };
const page = 'https://roots.example/roots/?bb=true&plan=roots_3d1_7d2499';
const ios = (version: string) =>
  `Mozilla/5.0 (iPhone; CPU iPhone OS ${version} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 300.0.0.0.0 (iPhone13,2; iOS ${version}; en_US; en-US; scale=3.00; 1170x2532; 520000000)`;
const androidInstagram =
  'Mozilla/5.0 (Linux; Android 13; Pixel 7 Build/TQ3A.230805.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/116.0.0.0 Mobile Safari/537.36 Instagram 298.0.0.0.0 Android (33/13; 420dpi; 1080x2400; Google/google; Pixel 7; panther; panther; en_US; 512000000)';
const iosFacebook =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/440.0.0.0.0;FBBV/0;FBDV/iPhone14,5;FBMD/iPhone;FBSN/iOS;FBSV/17.1;FBSS/3;FBID/phone;FBLC/en_US;FBOP/5]';
const safari =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';
const search = (query: string) => new URLSearchParams(query);

describe('in-app browser escape (bb=true)', () => {
  it('sends iOS 14 and lower to the external redirect page, without the flag', () => {
    const escape = inAppEscape(ios('14_8'), page, search('bb=true'), options);
    expect(escape).toMatchObject({ kind: 'redirect', via: 'redirect-page' });
    const href = new URL((escape as { href: string }).href);
    expect(href.pathname).toBe('/roots/open-in-browser');
    expect(href.searchParams.get('url')).toBe('https://roots.example/roots/?plan=roots_3d1_7d2499');
  });

  it('leaves iOS 15 where it is', () => {
    expect(inAppEscape(ios('15_7'), page, search('bb=true'), options)).toEqual({ kind: 'stay' });
  });

  it('opens iOS 16 in Chrome and newer iOS in Safari', () => {
    expect(inAppEscape(ios('16_6'), page, search('bb=true'), options)).toEqual({
      kind: 'redirect',
      via: 'chrome',
      href: 'googlechromes://roots.example/roots/?plan=roots_3d1_7d2499',
    });
    expect(inAppEscape(iosFacebook, page, search('bb=true'), options)).toEqual({
      kind: 'redirect',
      via: 'safari',
      href: 'x-safari-https://roots.example/roots/?plan=roots_3d1_7d2499',
    });
  });

  it("opens Android's default browser by an intent URL with bb or bb_android, and iOS ignores bb_android", () => {
    const fallback = encodeURIComponent(
      `https://roots.example/roots/open-in-browser?url=${encodeURIComponent('https://roots.example/roots/?plan=roots_3d1_7d2499')}`,
    );
    const expected = {
      kind: 'redirect',
      via: 'android-intent',
      href:
        'intent://roots.example/roots/?plan=roots_3d1_7d2499#Intent;scheme=https;action=android.intent.action.VIEW;' +
        `category=android.intent.category.BROWSABLE;S.browser_fallback_url=${fallback};end`,
    };
    expect(inAppEscape(androidInstagram, page, search('bb_android=true'), options)).toEqual(expected);
    expect(inAppEscape(androidInstagram, page, search('bb=true'), options)).toEqual(expected);
    expect(inAppEscape(ios('17_1'), page, search('bb_android=true'), options)).toEqual({ kind: 'stay' });
  });

  it('does nothing in a real browser or without the flag', () => {
    expect(inAppEscape(safari, page, search('bb=true'), options)).toEqual({ kind: 'stay' });
    expect(inAppEscape(ios('17_1'), page, search(''), options)).toEqual({ kind: 'stay' });
  });
});
