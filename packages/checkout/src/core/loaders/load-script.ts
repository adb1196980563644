import { CheckoutError, type CheckoutErrorCode } from '../errors/checkout-error';

/** Codes of the provider SDKs that fail to load (checkout-spec §8 "Loading errors"). */
export type ScriptLoadErrorCode = Extract<
  CheckoutErrorCode,
  'APPLE_PAY_SDK_LOAD_FAILED' | 'GOOGLE_PAY_SDK_LOAD_FAILED' | 'PAYPAL_SDK_LOAD_FAILED'
>;

const loads = new WeakMap<Document, Map<string, { script: HTMLScriptElement; loading: Promise<void> }>>();

/**
 * Loads a provider script once per document and URL (checkout-spec §7 "Script loads"). With
 * `replace`, an earlier script of the same `name` and another URL is removed first and its global
 * cleared — PayPal's script is fixed by its query (intent, vault), so a new choice loads it again.
 *
 * @example
 * await loadScript(document, 'https://pay.google.com/gp/p/js/pay.js', { name: 'google-pay', errorCode: 'GOOGLE_PAY_SDK_LOAD_FAILED' });
 */
export function loadScript(
  doc: Document,
  url: string,
  options: { name: string; errorCode: ScriptLoadErrorCode; replace?: { global: string }; attributes?: Record<string, string> },
): Promise<void> {
  let byUrl = loads.get(doc);
  if (!byUrl) loads.set(doc, (byUrl = new Map()));
  const existing = byUrl.get(url);
  // Loaded (or loading) and still in the page: reuse; a script someone removed loads again.
  if (existing?.script.isConnected) return existing.loading;
  if (options.replace) {
    for (const old of doc.querySelectorAll<HTMLScriptElement>(`script[data-roots-sdk="${options.name}"]`)) {
      byUrl.delete(old.src);
      old.remove();
    }
    delete (doc.defaultView as unknown as Record<string, unknown> | null)?.[options.replace.global];
  }
  const script = doc.createElement('script');
  const loading = new Promise<void>((resolve, reject) => {
    script.src = url;
    script.async = true;
    script.dataset.rootsSdk = options.name;
    for (const [name, value] of Object.entries(options.attributes ?? {})) script.setAttribute(name, value);
    script.addEventListener('load', () => resolve());
    script.addEventListener('error', () => {
      byUrl.delete(url);
      script.remove();
      reject(new CheckoutError(options.errorCode, `The ${options.name} script could not be loaded`));
    });
    doc.head.append(script);
  });
  byUrl.set(url, { script, loading });
  return loading;
}
