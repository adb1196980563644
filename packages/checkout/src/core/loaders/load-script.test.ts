// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { loadScript } from './load-script';

const scripts = (name: string) => [...document.querySelectorAll<HTMLScriptElement>(`script[data-roots-sdk="${name}"]`)];

afterEach(() => {
  document.head.replaceChildren();
});

describe('loadScript', () => {
  it('adds a script once per URL and resolves when it loads', async () => {
    const first = loadScript(document, 'https://pay.example/pay.js', { name: 'google-pay', errorCode: 'GOOGLE_PAY_SDK_LOAD_FAILED' });
    const again = loadScript(document, 'https://pay.example/pay.js', { name: 'google-pay', errorCode: 'GOOGLE_PAY_SDK_LOAD_FAILED' });
    expect(again).toBe(first);
    expect(scripts('google-pay')).toHaveLength(1);
    scripts('google-pay')[0]!.dispatchEvent(new Event('load'));
    await expect(first).resolves.toBeUndefined();
  });

  it('rejects with the provider code and forgets the URL so a later call retries', async () => {
    const loading = loadScript(document, 'https://pay.example/broken.js', { name: 'paypal', errorCode: 'PAYPAL_SDK_LOAD_FAILED' });
    scripts('paypal')[0]!.dispatchEvent(new Event('error'));
    await expect(loading).rejects.toMatchObject({ code: 'PAYPAL_SDK_LOAD_FAILED' });
    expect(scripts('paypal')).toHaveLength(0);
    void loadScript(document, 'https://pay.example/broken.js', { name: 'paypal', errorCode: 'PAYPAL_SDK_LOAD_FAILED' }).catch(() => {});
    expect(scripts('paypal')).toHaveLength(1);
  });

  it('replace: a new URL of the same SDK removes the old script and clears its global', async () => {
    const options = { name: 'paypal', errorCode: 'PAYPAL_SDK_LOAD_FAILED', replace: { global: 'paypal' } } as const;
    void loadScript(document, 'https://pp.example/sdk/js?vault=false', options);
    scripts('paypal')[0]!.dispatchEvent(new Event('load'));
    (window as unknown as { paypal?: unknown }).paypal = { Buttons: () => {} };
    void loadScript(document, 'https://pp.example/sdk/js?vault=true', options);
    expect(scripts('paypal').map((script) => script.src)).toEqual(['https://pp.example/sdk/js?vault=true']);
    expect((window as unknown as { paypal?: unknown }).paypal).toBeUndefined();
  });
});
