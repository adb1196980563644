import type { SdkInitPayload } from '@roots/contracts/gateway';
import { CheckoutError } from '../errors/checkout-error';

/** Log levels, quietest last. Default ERROR (checkout-spec §9). */
export const LOG_LEVELS = ['DEBUG', 'INFO', 'WARN', 'ERROR'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
/** Environments. Default PROD; setValue/clearValue work only outside PROD. */
export const ENVIRONMENTS = ['DEV', 'SANDBOX', 'PROD'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export type ClientInitOptions = {
  /** The merchant's `/init/session` answer (the gateway's SDK init payload). */
  session: SdkInitPayload;
  /** Vault base URL; defaults to `session.vaultURL`. A trailing slash is removed. */
  vaultURL?: string;
  /**
   * Returns a bearer token (a JWT). Called when the cached one is missing or expired, and on
   * session expiry. Default: the session's own token.
   */
  getBearerToken: () => Promise<string | undefined> | string | undefined;
  options?: {
    /** Default `ERROR`. */
    logLevel?: LogLevel;
    /** Default `PROD`. */
    env?: Environment;
    /** Where the secure-field frames are served from; must be https. Default `{gatewayOrigin}/secure-fields/v1`. */
    customElementsURL?: string;
    /**
     * Where the wallet SDK scripts load from. Default in PROD: Google's `pay.js` and PayPal's
     * `sdk/js`; elsewhere the gateway's stand-ins (`{gatewayOrigin}/sandbox/…`), which speak the
     * same surface against the sandbox (ADR 045).
     */
    walletScripts?: { googlePay?: string; payPal?: string };
  };
};

/** The providers' own script URLs (checkout-spec §7 "Script loads"). */
export const PROVIDER_SCRIPT_URLS = {
  googlePay: 'https://pay.google.com/gp/p/js/pay.js',
  payPal: 'https://www.paypal.com/sdk/js',
} as const;
/** The gateway sandbox's stand-ins, by path under the gateway origin. */
export const STAND_IN_SCRIPT_PATHS = { googlePay: '/sandbox/google-pay/pay.js', payPal: '/sandbox/paypal/sdk/js' } as const;

export type ResolvedClientConfig = {
  session: SdkInitPayload;
  vaultURL: string;
  getBearerToken: ClientInitOptions['getBearerToken'];
  logLevel: LogLevel;
  env: Environment;
  gatewayOrigin: string;
  /** Base URL of the frame pages, no trailing slash. */
  elementsURL: string;
  /** Script URLs of the Google-type wallet and PayPal SDKs (PayPal's without its query). */
  walletScripts: { googlePay: string; payPal: string };
};

/** Path under the gateway origin where the secure-fields plugin serves the frames. */
export const SECURE_FIELDS_PATH = '/secure-fields/v1';

/** Validates client init options once (checkout-spec §3, §5). */
export function resolveClientConfig(input: unknown): ResolvedClientConfig {
  if (typeof input !== 'object' || input === null) throw new CheckoutError('CLIENT_CONFIG_MALFORMED', 'client config must be an object');
  const config = input as Partial<ClientInitOptions>;
  if (typeof config.getBearerToken !== 'function') throw new CheckoutError('MISSING_GET_BEARER_TOKEN');
  const session = config.session;
  if (!session || typeof session !== 'object' || typeof session.gatewayOrigin !== 'string' || !session.links)
    throw new CheckoutError('CLIENT_CONFIG_MALFORMED', 'session must be the SDK init payload of /init/session');
  const vaultURL = config.vaultURL ?? session.vaultURL;
  if (typeof vaultURL !== 'string' || !/^https?:\/\//.test(vaultURL))
    throw new CheckoutError('INVALID_VAULT_URL', 'vaultURL must be an absolute URL');
  const options = config.options ?? {};
  const logLevel = options.logLevel ?? 'ERROR';
  if (!LOG_LEVELS.includes(logLevel)) throw new CheckoutError('INVALID_LOG_LEVEL', `logLevel must be one of ${LOG_LEVELS.join(', ')}`);
  const env = options.env ?? 'PROD';
  if (!ENVIRONMENTS.includes(env)) throw new CheckoutError('INVALID_ENV', `env must be one of ${ENVIRONMENTS.join(', ')}`);
  if (options.customElementsURL !== undefined && !/^https:\/\//.test(options.customElementsURL))
    throw new CheckoutError('INVALID_CUSTOM_ELEMENTS_URL');
  const gatewayOrigin = new URL(session.gatewayOrigin).origin;
  // The frames talk to the page and the vault as the gateway origin: elsewhere, messaging breaks.
  if (options.customElementsURL !== undefined && new URL(options.customElementsURL).origin !== gatewayOrigin)
    throw new CheckoutError('INVALID_CUSTOM_ELEMENTS_URL', `customElementsURL must be on the session's gateway origin (${gatewayOrigin})`);
  const scripts = options.walletScripts ?? {};
  for (const url of [scripts.googlePay, scripts.payPal])
    if (url !== undefined && !/^https?:\/\//.test(url))
      throw new CheckoutError('CLIENT_CONFIG_MALFORMED', 'walletScripts URLs must be absolute http(s) URLs');
  const defaultScript = (method: keyof typeof PROVIDER_SCRIPT_URLS) =>
    env === 'PROD' ? PROVIDER_SCRIPT_URLS[method] : `${gatewayOrigin}${STAND_IN_SCRIPT_PATHS[method]}`;
  return {
    session,
    vaultURL: vaultURL.replace(/\/+$/, ''),
    getBearerToken: config.getBearerToken,
    logLevel,
    env,
    gatewayOrigin,
    elementsURL: (options.customElementsURL ?? `${gatewayOrigin}${SECURE_FIELDS_PATH}`).replace(/\/+$/, ''),
    walletScripts: { googlePay: scripts.googlePay ?? defaultScript('googlePay'), payPal: scripts.payPal ?? defaultScript('payPal') },
  };
}

/** A payment method needs a code and an integration type (checkout-spec §5). */
export function validatePaymentMethod(method: { code?: unknown; integrationType?: unknown }): void {
  if (typeof method.code !== 'string' || method.code === '')
    throw new CheckoutError('MISSING_PAYMENT_METHOD_CODE', 'A payment method must have a code');
  if (method.integrationType !== 'api' && method.integrationType !== 'hpp')
    throw new CheckoutError('CONFIG_MALFORMED', `payment method ${method.code} has no integration type`);
}
