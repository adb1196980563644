/**
 * The local OpenID Connect providers of the browser tests (`e2e/support/oidc-provider.ts`): one
 * Google-type and one Apple-type issuer, each with one client for the product under test. Kept
 * apart from the server so the Playwright config and the specs can read them without loading
 * oidc-provider.
 */

export type OidcProviderKind = 'google' | 'apple';

/** A person the provider can sign in: listed on its account page. */
export type OidcTestAccount = { email: string; name: string };

export type OidcProviderSettings = {
  kind: OidcProviderKind;
  port: number;
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Title of the provider's own sign-in page. */
  pageTitle: string;
  /** Accounts already known to the provider (the chooser lists them; others can be added there). */
  accounts: readonly OidcTestAccount[];
};

const HOST = '127.0.0.1';
/** `E2E_PORT_OFFSET` moves every browser-test port, so two checkouts can run their suites at once. */
const OFFSET = Number(process.env.E2E_PORT_OFFSET ?? 0);

/** Google-type: scopes openid profile email; the product asks for the account chooser every time. */
export const GOOGLE_TYPE_PROVIDER: OidcProviderSettings = {
  kind: 'google',
  port: 4201 + OFFSET,
  issuer: `http://${HOST}:${4201 + OFFSET}`,
  clientId: 'roots-e2e-google',
  clientSecret: 'roots-e2e-google-client-secret',
  pageTitle: 'Choose an account',
  accounts: [
    { email: 'ada.google@example.com', name: 'Ada Lovelace' },
    { email: 'grace.google@example.com', name: 'Grace Hopper' },
  ],
};

/** Apple-type: scopes openid email name, answered by form post like Apple's. */
export const APPLE_TYPE_PROVIDER: OidcProviderSettings = {
  kind: 'apple',
  port: 4202 + OFFSET,
  issuer: `http://${HOST}:${4202 + OFFSET}`,
  clientId: 'roots-e2e-apple',
  clientSecret: 'roots-e2e-apple-client-secret',
  pageTitle: 'Sign in with your Apple ID',
  accounts: [{ email: 'katherine.apple@example.com', name: 'Katherine Johnson' }],
};

export const OIDC_TEST_PROVIDERS = [GOOGLE_TYPE_PROVIDER, APPLE_TYPE_PROVIDER] as const;

/** What the product server needs to use these providers (the AUTH_* variables of `.env.example`). */
export function oidcProviderEnv(): Record<string, string> {
  return {
    AUTH_GOOGLE_ISSUER: GOOGLE_TYPE_PROVIDER.issuer,
    AUTH_GOOGLE_CLIENT_ID: GOOGLE_TYPE_PROVIDER.clientId,
    AUTH_GOOGLE_CLIENT_SECRET: GOOGLE_TYPE_PROVIDER.clientSecret,
    AUTH_APPLE_ISSUER: APPLE_TYPE_PROVIDER.issuer,
    AUTH_APPLE_CLIENT_ID: APPLE_TYPE_PROVIDER.clientId,
    AUTH_APPLE_CLIENT_SECRET: APPLE_TYPE_PROVIDER.clientSecret,
  };
}

/** Where the provider sends the browser back: better-auth's callback on the product server. */
export function callbackUrlOf(productOrigin: string, kind: OidcProviderKind): string {
  return `${productOrigin}/api/auth/callback/${kind}`;
}
