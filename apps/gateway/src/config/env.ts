import { commaSeparated, sharedSecretProblems, weakSecretProblem } from '@roots/server-kit';
import { z } from 'zod';
import { LOG_FORMATS } from '@roots/observability';

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();

/**
 * Development-only secrets. They let `npm start` run with no configuration; they are public
 * (this file is in git), so production refuses to start without real values.
 */
export const DEV_DEFAULT_SECRETS = {
  /** 32 zero-ish bytes, base64. DEV ONLY. */
  GATEWAY_VAULT_KEY: Buffer.from('roots-sandbox-dev-vault-key-32b!').toString('base64'),
  GATEWAY_MERCHANT_SECRET: 'sk_test_roots_sandbox_dev_merchant_secret',
  GATEWAY_JWT_SECRET: 'roots-sandbox-dev-jwt-signing-secret-not-for-production',
  GATEWAY_WEBHOOK_SECRET: 'whsec_roots_sandbox_dev_webhook_secret',
} as const;

const commaList = z.string().transform(commaSeparated).pipe(z.array(z.url()));

/** Every environment variable the gateway sandbox reads; documented in `.env.example`. */
export const gatewayEnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** Bearer token a Prometheus scraper sends to `GET /metrics`. Unset: open outside production, no `/metrics` in production. */
  METRICS_TOKEN: z.string().min(32).optional(),
  GATEWAY_HOST: z.string().min(1).default('127.0.0.1'),
  GATEWAY_PORT: port.default(4000),
  /** Public origin of the gateway (the secure frames' origin); defaults to http://GATEWAY_HOST:GATEWAY_PORT. */
  GATEWAY_PUBLIC_URL: z.url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `pretty` (lines a person reads) or `json` (a JSON object a line); default: pretty in development, json otherwise. */
  LOG_FORMAT: z.enum(LOG_FORMATS).optional(),
  /** Directory of the embedded PGlite database; `memory://` keeps it in memory (tests). */
  GATEWAY_DATA_DIR: z.string().min(1).default('./data/gateway'),
  /** A real PostgreSQL server; when unset PGlite under GATEWAY_DATA_DIR is used. */
  GATEWAY_DATABASE_URL: z.url().optional(),
  /** AES-256-GCM key for card data at rest: 32 bytes, base64. */
  GATEWAY_VAULT_KEY: z
    .string()
    .refine((value) => Buffer.from(value, 'base64').length === 32, 'must be 32 bytes, base64-encoded')
    .optional(),
  /** Merchant API secret (x-api-key header). */
  GATEWAY_MERCHANT_SECRET: z.string().min(16).optional(),
  /** HS256 key signing the SDK bearer tokens. */
  GATEWAY_JWT_SECRET: z.string().min(32).optional(),
  /** HMAC-SHA256 key signing webhooks. */
  GATEWAY_WEBHOOK_SECRET: z.string().min(16).optional(),
  /** Comma-separated URLs receiving signed webhooks; empty: none. */
  GATEWAY_WEBHOOK_URLS: commaList.default([]),
  GATEWAY_WEBHOOK_MAX_ATTEMPTS: positiveInt.max(20).default(8),
  /** First retry delay; doubles on each attempt (with jitter). */
  GATEWAY_WEBHOOK_RETRY_BASE_MS: positiveInt.default(2_000),
  GATEWAY_WEBHOOK_TIMEOUT_MS: positiveInt.default(5_000),
  /** Lifetime of a client session and of its bearer token. */
  GATEWAY_SESSION_TTL_SECONDS: positiveInt.default(1_800),
  /** Requests per minute per bearer token / merchant key / IP. */
  GATEWAY_RATE_LIMIT_PER_MINUTE: positiveInt.default(600),
  /** Polls a slow-authorization card stays `authorizeRequested` before success. */
  GATEWAY_SLOW_AUTH_POLLS: z.coerce.number().int().min(0).max(50).default(3),
  /**
   * How long a 3-D Secure challenge waits for the shopper before the execution fails with
   * `payment_expired` (a closed challenge window is never answered). Default 10 minutes.
   */
  GATEWAY_CHALLENGE_TTL_SECONDS: positiveInt.max(86_400).default(600),
  /**
   * The merchant's page origins (comma-separated): the only pages that may call the client API,
   * frame the secure fields and hosted pages (CSP frame-ancestors), and receive the pages' window
   * messages. Default: the product's own origin (PUBLIC_URL, else http://HOST:PORT of the server).
   * `*` (any) is for local experiments only and refused with NODE_ENV=production.
   */
  GATEWAY_MERCHANT_ORIGINS: z.string().min(1).optional(),
  /** The product server's public URL, read only for the default of GATEWAY_MERCHANT_ORIGINS. */
  PUBLIC_URL: z.url().optional(),
  /** The product server's address, read only for the default of GATEWAY_MERCHANT_ORIGINS. */
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: port.default(3000),
  /** Merchant name shown in wallet sheets. */
  GATEWAY_MERCHANT_NAME: z.string().min(1).default('Roots'),
  /** Who authorizes card payments: `sandbox` (the test-card table, default) or `adyen` (Checkout API v71; ADR 173). */
  GATEWAY_PROCESSOR: z.enum(['sandbox', 'adyen']).default('sandbox'),
  /** Adyen API key (Customer Area → Developers → API credentials); required with GATEWAY_PROCESSOR=adyen. */
  ADYEN_API_KEY: z.string().min(16).optional(),
  /** The Adyen merchant account payments are made on; required with GATEWAY_PROCESSOR=adyen. */
  ADYEN_MERCHANT_ACCOUNT: z
    .string()
    .regex(/^[A-Za-z0-9_-]{3,80}$/, 'must be an Adyen merchant account name')
    .optional(),
  /** `test` (Adyen's test platform) or `live`. */
  ADYEN_ENVIRONMENT: z.enum(['test', 'live']).default('test'),
  /** The live endpoint prefix of the company account (`[random]-[company name]`); required when ADYEN_ENVIRONMENT=live. */
  ADYEN_LIVE_URL_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9]+-[A-Za-z0-9-]+$/, 'must be the live URL prefix, e.g. 1797a841fbb37ca7-AdyenDemo')
    .optional(),
  /** HMAC keys (hex) of the notification webhook, comma-separated: two during a rotation. Required with GATEWAY_PROCESSOR=adyen. */
  ADYEN_HMAC_KEYS: z
    .string()
    .transform(commaSeparated)
    .pipe(
      z
        .array(z.string().regex(/^([0-9A-Fa-f]{2}){16,64}$/, 'each key must be hex (32 to 128 characters)'))
        .min(1)
        .max(2),
    )
    .optional(),
  /**
   * Base URL of the Checkout API instead of Adyen's own (a validating mock of Adyen's definition in
   * tests and local runs). Not allowed when ADYEN_ENVIRONMENT=live.
   */
  ADYEN_CHECKOUT_URL: z.url().optional(),
  /** How long one call to Adyen may take before it is retried (same idempotency key). */
  ADYEN_TIMEOUT_MS: positiveInt.max(60_000).default(15_000),
});

type Env = z.infer<typeof gatewayEnvSchema>;
type SecretName = keyof typeof DEV_DEFAULT_SECRETS;

/** The processor card payments go to, with what it needs (ADR 173). */
export type ProcessorConfig =
  | { name: 'sandbox' }
  | {
      name: 'adyen';
      apiKey: string;
      merchantAccount: string;
      environment: 'test' | 'live';
      liveUrlPrefix: string | undefined;
      hmacKeys: string[];
      checkoutUrl: string | undefined;
      timeoutMs: number;
    };

export type GatewayConfig = Omit<Env, SecretName> & {
  [K in SecretName]: string;
} & {
  processor: ProcessorConfig;
  publicUrl: string;
  /** The merchant's page origins (client API, frame-ancestors, window messages); `'*'` for any, never in production. */
  merchantOrigins: string[] | '*';
  /** Names of the secrets that fell back to the development defaults. */
  devSecrets: SecretName[];
};

export class GatewayConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'GatewayConfigError';
  }
}

export function loadGatewayConfig(source: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const raw = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = gatewayEnvSchema.safeParse(raw);
  if (!parsed.success) {
    throw new GatewayConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const env = parsed.data;
  const processor = processorConfig(env);
  const secretNames = Object.keys(DEV_DEFAULT_SECRETS) as SecretName[];
  const devSecrets = secretNames.filter((name) => env[name] === undefined);
  if (env.NODE_ENV === 'production') {
    const problems = [
      ...devSecrets.map((name) => `${name}: required when NODE_ENV=production (no development default)`),
      // Issue 22: published values, repeated patterns and one value for two purposes are refused too.
      ...secretNames.flatMap((name) => {
        const value = env[name];
        const problem = value === undefined ? undefined : weakSecretProblem(name, value, Object.values(DEV_DEFAULT_SECRETS));
        return problem === undefined ? [] : [problem];
      }),
      ...sharedSecretProblems(Object.fromEntries(secretNames.map((name) => [name, env[name]]))),
    ];
    if (problems.length > 0) throw new GatewayConfigError(problems);
  }
  const secrets = Object.fromEntries(secretNames.map((name) => [name, env[name] ?? DEV_DEFAULT_SECRETS[name]])) as Record<
    SecretName,
    string
  >;
  const merchantOrigins = parseMerchantOrigins(
    env.GATEWAY_MERCHANT_ORIGINS ?? new URL(env.PUBLIC_URL ?? `http://${env.HOST}:${env.PORT}`).origin,
  );
  if (merchantOrigins === '*' && env.NODE_ENV === 'production') {
    throw new GatewayConfigError(['GATEWAY_MERCHANT_ORIGINS: `*` is refused when NODE_ENV=production; list the merchant page origins']);
  }
  return {
    ...env,
    ...secrets,
    processor,
    devSecrets,
    merchantOrigins,
    publicUrl: (env.GATEWAY_PUBLIC_URL ?? `http://${env.GATEWAY_HOST}:${env.GATEWAY_PORT}`).replace(/\/$/, ''),
  };
}

/** The processor's settings; a missing or contradictory value stops start-up naming the variable. */
function processorConfig(env: Env): ProcessorConfig {
  if (env.GATEWAY_PROCESSOR === 'sandbox') return { name: 'sandbox' };
  const problems: string[] = [];
  const required = ['ADYEN_API_KEY', 'ADYEN_MERCHANT_ACCOUNT', 'ADYEN_HMAC_KEYS'] as const;
  for (const name of required) if (env[name] === undefined) problems.push(`${name}: required when GATEWAY_PROCESSOR=adyen`);
  if (env.ADYEN_ENVIRONMENT === 'live') {
    if (env.ADYEN_LIVE_URL_PREFIX === undefined) problems.push('ADYEN_LIVE_URL_PREFIX: required when ADYEN_ENVIRONMENT=live');
    if (env.ADYEN_CHECKOUT_URL !== undefined)
      problems.push("ADYEN_CHECKOUT_URL: not allowed when ADYEN_ENVIRONMENT=live (Adyen's own endpoint only)");
  }
  if (env.NODE_ENV === 'production' && env.ADYEN_CHECKOUT_URL !== undefined && !env.ADYEN_CHECKOUT_URL.startsWith('https://'))
    problems.push('ADYEN_CHECKOUT_URL: must be https:// when NODE_ENV=production (card data travels on it)');
  if (problems.length > 0 || !env.ADYEN_API_KEY || !env.ADYEN_MERCHANT_ACCOUNT || !env.ADYEN_HMAC_KEYS)
    throw new GatewayConfigError(problems);
  return {
    name: 'adyen',
    apiKey: env.ADYEN_API_KEY,
    merchantAccount: env.ADYEN_MERCHANT_ACCOUNT,
    environment: env.ADYEN_ENVIRONMENT,
    liveUrlPrefix: env.ADYEN_LIVE_URL_PREFIX,
    hmacKeys: env.ADYEN_HMAC_KEYS,
    checkoutUrl: env.ADYEN_CHECKOUT_URL?.replace(/\/$/, ''),
    timeoutMs: env.ADYEN_TIMEOUT_MS,
  };
}

/**
 * `*`, or a list of origins (each an absolute URL reduced to its origin; a path or a trailing slash
 * is dropped). A value that is not an origin stops start-up.
 */
export function parseMerchantOrigins(value: string): string[] | '*' {
  if (value.trim() === '*') return '*';
  const items = commaSeparated(value);
  const problems: string[] = [];
  const origins = items.flatMap((item) => {
    try {
      const origin = new URL(item).origin;
      if (origin === 'null') throw new Error('opaque origin');
      return [origin];
    } catch {
      problems.push(`GATEWAY_MERCHANT_ORIGINS: ${item} is not an origin (https://shop.example)`);
      return [];
    }
  });
  if (items.length === 0) problems.push('GATEWAY_MERCHANT_ORIGINS: at least one origin');
  if (problems.length > 0) throw new GatewayConfigError(problems);
  return [...new Set(origins)];
}
