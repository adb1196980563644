import { EU_EEA_COUNTRIES, GEO_FALLBACKS } from '@roots/contracts/admin';
import {
  buildPlanCatalog,
  DEFAULT_PRODUCT_COPY,
  planOverrideSchema,
  productCopySchema,
  productSlugSchema,
  UnknownPlanError,
  type PlanCatalog,
  type ProductCopy,
} from '@roots/contracts';
import { commaSeparated, sharedSecretProblems, weakSecretProblem } from '@roots/server-kit';
import { z } from 'zod';
import { LOG_FORMATS } from '@roots/observability';

const jsonText = <T extends z.ZodType>(schema: T) =>
  z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'is not valid JSON' });
        return z.NEVER;
      }
    })
    .pipe(schema);

const port = z.coerce.number().int().min(0).max(65535);
const booleanFlag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/**
 * Running several instances and remote analyzers (ADR 115–117); kept in one block apart from the rest.
 */
const scaleOutEnv = {
  /** Comma-separated base URLs of analyzer services (`npm run analyzer`); unset: an in-process worker pool. */
  ANALYSIS_URLS: z
    .string()
    .transform(commaSeparated)
    .pipe(z.array(z.url({ protocol: /^https?$/, error: 'must be comma-separated http(s) URLs' })).min(1))
    .optional(),
  /** Timeout of one call to one analyzer; a timed-out photo moves to the next analyzer. */
  ANALYSIS_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  /** Total time one photo may spend going round busy or failing analyzers before the report fails. */
  ANALYSIS_DEADLINE_MS: z.coerce.number().int().min(100).default(120_000),
  /** Photos this instance sends to the analyzers at once; ANALYSIS_QUEUE_SIZE more wait their turn (ADR 165). */
  ANALYSIS_MAX_IN_FLIGHT: z.coerce.number().int().min(1).default(64),
};

/** The analysis queue of this process, in front of its workers or its analyzers (issue 32, ADR 165). */
const analysisQueueEnv = {
  /** Photos (face checks and reports) that wait for a worker beyond the ones running; one more answers 503 with Retry-After. */
  ANALYSIS_QUEUE_SIZE: z.coerce.number().int().min(0).max(10_000).default(32),
  /** Places in that queue one client address may hold, running or waiting; one more answers 429 with Retry-After. */
  ANALYSIS_QUEUE_PER_CLIENT: z.coerce.number().int().min(1).max(1_000).default(3),
};

/**
 * Every environment variable the server reads. `.env.example` documents each one;
 * a test keeps the two in step.
 */
/** `EU_EEA,CH` → the EU and EEA states plus CH; `none` → no country. */
function faceAnalysisBlockedCountries(value: string): string[] {
  const codes = commaSeparated(value).map((item) => item.toUpperCase());
  if (codes.length === 1 && codes[0] === 'NONE') return [];
  return [...new Set(codes.flatMap((code) => (code === 'EU_EEA' ? [...EU_EEA_COUNTRIES] : [code])))];
}

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: port.default(3000),
  /** Public origin of the server, e.g. https://roots.example; defaults to http://HOST:PORT. */
  PUBLIC_URL: z.url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `pretty` (lines a person reads) or `json` (a JSON object a line); default: pretty in development, json otherwise. */
  LOG_FORMAT: z.enum(LOG_FORMATS).optional(),
  PRODUCT_SLUG: productSlugSchema.default('roots'),
  PRODUCT_NAME: z.string().min(1).max(60).default('Roots'),
  /** JSON object overriding marketing copy keys (see DEFAULT_PRODUCT_COPY). */
  PRODUCT_COPY: jsonText(productCopySchema.partial().strict()).optional(),
  /** JSON object `{ "<plan id>": { sum?, trial_sum?, discount_percent?, name?, name_full?, prev_price? } }`. */
  PLAN_OVERRIDES: jsonText(z.record(z.string(), planOverrideSchema)).optional(),
  /** postgres:// URL of a real PostgreSQL server; when absent, embedded PGlite persists under DATA_DIR. */
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' }).optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  /** Directory holding the built web app (index.html + assets). */
  WEB_DIST_DIR: z.string().min(1).optional(),
  GATEWAY_URL: z.url().default('http://127.0.0.1:4000'),
  /** Legal pages; default: the product's own pages at /{slug}/legal/{cookies,privacy,terms}. */
  COOKIE_LINK: z.string().min(1).optional(),
  PRIVACY_LINK: z.string().min(1).optional(),
  TERMS_LINK: z.string().min(1).optional(),
  /** Who operates the product (legal name), named on the legal pages and every email; dev default: "{PRODUCT_NAME} Example Ltd". */
  LEGAL_OPERATOR_NAME: z.string().min(1).max(120).optional(),
  /** Postal address of the operator, on the legal pages and every email; dev default: "1 Example Street, Example City". */
  LEGAL_OPERATOR_ADDRESS: z.string().min(1).max(300).optional(),
  /** Contact address for privacy requests, refunds and questions; dev default: support@{slug}.example.com. */
  LEGAL_CONTACT_EMAIL: z.email().optional(),
  TRACKING_ENABLED: booleanFlag.default(false),
  /**
   * Base URL of the subscription service the page calls (product-spec §7: /init/session, /subs/*,
   * /rec/subscriptions/*); default: the page's own origin. The service must allow the page's origin.
   */
  SUBSCRIPTION_API_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** The staging subscription service, used by pages whose origin contains 'dev'; default: the page's own origin. */
  SUBSCRIPTION_API_STAGING_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** Trusted reverse proxies in front of the server: 'false' (default), 'true' (any), or a comma-separated list of addresses/CIDRs. */
  TRUST_PROXY: z.string().default('false'),
  /** Header a trusted proxy sets to the client's country (e.g. cf-ipcountry); else the offline GeoIP database answers. */
  COUNTRY_HEADER: z
    .string()
    .regex(/^[a-z0-9-]+$/i)
    .transform((value) => value.toLowerCase())
    .optional(),
  /** Merchant API key of the gateway (x-api-key). Defaults to the sandbox's development key outside production. */
  GATEWAY_MERCHANT_SECRET: z.string().min(16).optional(),
  /** Timeout of one server-to-server gateway call. */
  GATEWAY_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** Signs one-click cancel links. Required in production. */
  APP_SECRET: z.string().min(32).optional(),
  /** smtp:// or smtps:// URL; when unset, emails go to the dev mailbox in the database (/dev/mailbox). */
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  /** From header of every email. */
  MAIL_FROM: z.string().min(3).default('Roots <no-reply@roots.local>'),
  /** Run the billing scheduler (trial conversion, renewals, retries, reminders, outbox) in this process. */
  BILLING_SCHEDULER_ENABLED: booleanFlag.default(true),
  /** Interval between scheduler ticks. */
  BILLING_TICK_MS: z.coerce.number().int().min(50).default(30_000),
  /**
   * Least time between two sweeps of the gateway's executions (ADR 127), across all instances: a
   * scheduler tick sweeps only when the last sweep anywhere started this long ago.
   */
  PAYMENT_SWEEP_INTERVAL_MS: z.coerce.number().int().min(0).default(60_000),
  /**
   * How long a paid execution no subscription claims is left to its purchase request (a slow
   * browser, a retry) before the sweep refunds it (ADR 127). Counted from the payment.
   */
  PAYMENT_SWEEP_GRACE_MS: z.coerce.number().int().min(0).default(900_000),
  /** Open purchase intents younger than this belong to a request still running; older ones are finished by the reconciler. */
  PURCHASE_RECONCILE_AFTER_MS: z.coerce.number().int().min(0).default(30_000),
  /** Hours before a trial converts when the reminder email goes out. */
  TRIAL_REMINDER_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(24),
  /** Delays between retries of a soft-declined renewal, comma-separated hours; after the last the subscription expires. */
  RENEWAL_RETRY_DELAYS_HOURS: z
    .string()
    .default('24,72,120')
    .transform((value) => commaSeparated(value).map(Number))
    .pipe(z.array(z.number().positive()).min(1).max(10)),
  /** Days after a charge during which a cancel may ask for the money-back-guarantee refund. */
  MONEY_BACK_GUARANTEE_DAYS: z.coerce.number().int().min(0).max(365).default(30),
  /** Analysis worker threads in this process (~285 MB each); default: available cores. */
  ANALYSIS_WORKERS: z.coerce.number().int().min(1).max(64).optional(),
  /** A report still pending or processing this long after creation expires (e.g. the process died mid-analysis). */
  REPORT_PROCESSING_TIMEOUT_MS: z.coerce.number().int().min(1_000).default(600_000),
  /** Interval between sweeps that expire stuck reports. */
  REPORT_SWEEP_INTERVAL_MS: z.coerce.number().int().min(50).default(60_000),
  /** Face checks per minute per client IP (each one runs the analysis engine). */
  FACE_CHECK_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(20),
  /** Requests per minute per client IP on every public endpoint. */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(120),
  /**
   * Checkout calls (`/init/session`, its token refresh, Apple Pay validation) one client address may
   * make per minute, counted once the request is valid (issue 32, ADR 160).
   */
  GATEWAY_CLIENT_BUDGET_PER_MINUTE: z.coerce.number().int().positive().default(40),
  /**
   * Checkout calls of all clients together per minute without a checkout pass, counted across
   * instances. Past it, a checkout asks the browser for a solved proof-of-work challenge (ADR 160).
   */
  GATEWAY_SESSION_BUDGET_PER_MINUTE: z.coerce.number().int().positive().default(300),
  /** Checkout calls of all clients together per minute kept for checkout passes (a solved challenge; ADR 160). */
  GATEWAY_CHECKOUT_RESERVE_PER_MINUTE: z.coerce.number().int().positive().default(100),
  /**
   * Purchase and payment-status reads of executions this server opened that one client address may
   * make per minute (ADR 160); there is no share of all clients for them.
   */
  GATEWAY_CLIENT_PURCHASE_BUDGET_PER_MINUTE: z.coerce.number().int().positive().default(10),
  /**
   * Bearer token a Prometheus scraper sends to `GET /metrics` (issue 22). Unset: open outside
   * production, and no `/metrics` at all in production.
   */
  METRICS_TOKEN: z.string().min(32).optional(),
  /** Secret the analyzer services share with the servers (`npm run analyzer`); required in production with ANALYSIS_URLS. */
  ANALYZER_SECRET: z.string().min(32).optional(),
  /**
   * Different emails one client address may ask sign-in codes for per hour (asking again for the
   * same email counts once). Generous: many customers share one carrier or office address (ADR 167).
   */
  SIGN_IN_CODES_PER_IP_PER_HOUR: z.coerce.number().int().positive().default(100),
  /**
   * At least this many seconds between a sign-in code email and a re-send of the same code to one
   * address; asking sooner sends nothing (a new code is always sent). 0: no spacing (test suites; ADR 167).
   */
  SIGN_IN_CODE_RESEND_SECONDS: z.coerce.number().int().min(0).max(3_600).default(60),
  /** Re-sends of a still-valid sign-in code to one address per day; a new code is always sent (ADR 167). */
  SIGN_IN_CODE_RESENDS_PER_DAY: z.coerce.number().int().positive().default(10),
  /** Sign-in codes one client address may try per hour, across codes and emails (no brute force). */
  SIGN_IN_GUESSES_PER_IP_PER_HOUR: z.coerce.number().int().positive().default(300),
  /** Sign-in codes tried for one email per minute, whoever tries (guessing stays slow; ADR 167). */
  SIGN_IN_GUESSES_PER_EMAIL_PER_MINUTE: z.coerce.number().int().positive().default(5),
  /** Wrong authenticator codes an operator may enter before their second-factor step is locked (ADR 168). */
  OPERATOR_TOTP_MAX_FAILURES: z.coerce.number().int().min(1).max(100).default(5),
  /** How long an operator's second-factor step stays locked after OPERATOR_TOTP_MAX_FAILURES wrong codes. */
  OPERATOR_TOTP_LOCK_MINUTES: z.coerce.number().int().min(1).max(1_440).default(15),
  /** Requests per hour per email address on endpoints that take one. */
  EMAIL_RATE_LIMIT_PER_HOUR: z.coerce.number().int().positive().default(30),
  /** Signs sessions and sign-in state (better-auth). Required in production. */
  AUTH_SECRET: z.string().min(32).optional(),
  /** Lifetime of a signed-in session; the browser refreshes it 5 minutes before the end. */
  AUTH_SESSION_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(300)
    .default(7 * 86_400),
  /** Extra origins allowed to call the sign-in endpoints (comma-separated), besides PUBLIC_URL. */
  AUTH_TRUSTED_ORIGINS: z.string().default('').transform(commaSeparated),
  /** Google-type OpenID Connect provider: issuer URL (discovery at /.well-known/openid-configuration), client id and secret. */
  AUTH_GOOGLE_ISSUER: z.url().optional(),
  AUTH_GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  AUTH_GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  /** Apple-type OpenID Connect provider: issuer URL, client id (service id) and secret. */
  AUTH_APPLE_ISSUER: z.url().optional(),
  AUTH_APPLE_CLIENT_ID: z.string().min(1).optional(),
  AUTH_APPLE_CLIENT_SECRET: z.string().min(1).optional(),
  /**
   * `frame-ancestors` of every response: who may frame the product's pages. `'none'` (default), `'self'`,
   * or space-separated https origins of partners allowed to embed them.
   */
  CSP_FRAME_ANCESTORS: z
    .string()
    .regex(/^(?:'none'|'self'|(?:(?:'self'|https:\/\/[a-z0-9.-]+(?::\d+)?)(?: |$))+)$/i, {
      error: "must be 'none', 'self' or space-separated https:// origins",
    })
    .transform((value) => value.trim())
    .default("'none'"),
  /**
   * HMAC secret of the gateway's signed webhooks (the gateway's GATEWAY_WEBHOOK_SECRET), received at
   * `POST /api/gateway/webhooks`. Defaults to the sandbox's development secret outside production;
   * unset in production, every webhook is refused.
   */
  GATEWAY_WEBHOOK_SECRET: z.string().min(16).optional(),
  /** Test only (NODE_ENV=test): crash the process at a named point (create-after-verify, renewal-after-charge). */
  FAULT_INJECTION: z.enum(['create-after-verify', 'renewal-after-charge', 'add-on-after-charge', 'refund-after-charge']).optional(),
  ...scaleOutEnv,
  ...analysisQueueEnv,

  // ----- operator console and compliance (issue 13; ADR 120-124) -----
  /**
   * Countries (ISO 3166-1 alpha-2, comma-separated) where the face analysis is not offered; `EU_EEA`
   * stands for the EU and EEA states (the default), `none` offers it everywhere. The caller's
   * country comes from COUNTRY_HEADER behind TRUST_PROXY, else the offline GeoIP database.
   */
  FACE_ANALYSIS_BLOCKED_COUNTRIES: z
    .string()
    .default('EU_EEA')
    .transform((value) => faceAnalysisBlockedCountries(value))
    .pipe(z.array(z.string().regex(/^[A-Z]{2}$/, 'must list ISO 3166-1 alpha-2 codes, EU_EEA or none'))),
  /** What the funnel offers where the face analysis is not: `insights` (horoscope, biorhythm, population) or `nothing`. */
  FACE_ANALYSIS_BLOCKED_OFFER: z.enum(GEO_FALLBACKS).default('insights'),
});

/** The gateway sandbox's development webhook secret (apps/gateway DEV secrets); never used in production. */
export const DEV_GATEWAY_WEBHOOK_SECRET = 'whsec_roots_sandbox_dev_webhook_secret';

/** Development-only defaults for secrets; production refuses to start without real values. */
/** The merchant's postal address outside production when none is configured: plainly an example. */
export const DEV_OPERATOR_ADDRESS = '1 Example Street, Example City';

export const DEV_SERVER_SECRETS = {
  GATEWAY_MERCHANT_SECRET: 'sk_test_roots_sandbox_dev_merchant_secret',
  APP_SECRET: 'roots-dev-app-secret-not-for-production-use',
  AUTH_SECRET: 'roots-dev-auth-secret-not-for-production-use',
} as const;

export type Env = z.infer<typeof envSchema>;

export type Config = Omit<Env, keyof typeof DEV_SERVER_SECRETS> & {
  [K in keyof typeof DEV_SERVER_SECRETS]: string;
} & {
  /** Null: no secret configured (production without GATEWAY_WEBHOOK_SECRET), webhooks refused. */
  gatewayWebhookSecret: string | null;
  publicUrl: string;
  COOKIE_LINK: string;
  PRIVACY_LINK: string;
  TERMS_LINK: string;
  LEGAL_OPERATOR_NAME: string;
  LEGAL_OPERATOR_ADDRESS: string;
  LEGAL_CONTACT_EMAIL: string;
  copy: ProductCopy;
  catalog: PlanCatalog;
};

/** Thrown at start-up when the environment is invalid; the message names every bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Hosts that only this machine reaches: links built on them are dead for everyone else. */
const LOOPBACK_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\]|0\.0\.0\.0|\[::\])$/i;

/**
 * Defaults that are right on a laptop and silently wrong in production, each named: emails kept in
 * the dev mailbox and never sent, emailed links pointing at localhost, analysis workers sized to
 * every host core (~285 MB each) rather than to the container.
 */
function silentProductionSettings(env: Env): string[] {
  const problems: string[] = [];
  if (env.SMTP_URL === undefined) {
    problems.push('SMTP_URL: required when NODE_ENV=production (without it receipts and reminders are stored and never sent)');
  }
  if (env.PUBLIC_URL === undefined) {
    problems.push(
      `PUBLIC_URL: required when NODE_ENV=production (the default http://${env.HOST}:${env.PORT} puts localhost links in emails)`,
    );
  } else if (LOOPBACK_HOST.test(new URL(env.PUBLIC_URL).hostname)) {
    problems.push(`PUBLIC_URL: ${env.PUBLIC_URL} is a loopback address; set the public origin customers reach when NODE_ENV=production`);
  } else if (new URL(env.PUBLIC_URL).protocol !== 'https:') {
    problems.push(
      `PUBLIC_URL: ${env.PUBLIC_URL} is not https; when NODE_ENV=production the purchase and session cookies are sent only over https (terminate TLS at the proxy and set the https origin)`,
    );
  }
  // Receipts and legal pages name who the customer deals with and where to reach them (issue 23).
  for (const name of ['LEGAL_OPERATOR_NAME', 'LEGAL_OPERATOR_ADDRESS', 'LEGAL_CONTACT_EMAIL'] as const) {
    if (env[name] === undefined) {
      problems.push(`${name}: required when NODE_ENV=production (receipts and legal pages name the merchant and a support address)`);
    }
  }
  if (env.ANALYSIS_URLS !== undefined && env.ANALYZER_SECRET === undefined) {
    problems.push('ANALYZER_SECRET: required with ANALYSIS_URLS when NODE_ENV=production (the analyzers answer only servers that hold it)');
  }
  if (env.ANALYSIS_WORKERS === undefined) {
    problems.push('ANALYSIS_WORKERS: required when NODE_ENV=production (the default starts one ~285 MB worker per host core)');
  }
  return problems;
}

/**
 * Secrets production refuses (issue 22): the development defaults and examples published in the
 * repository, repeated characters or patterns, and one value reused for two purposes.
 */
function weakProductionSecrets(env: Env): string[] {
  const published = [...Object.values(DEV_SERVER_SECRETS), DEV_GATEWAY_WEBHOOK_SECRET];
  const secrets = {
    APP_SECRET: env.APP_SECRET,
    AUTH_SECRET: env.AUTH_SECRET,
    GATEWAY_MERCHANT_SECRET: env.GATEWAY_MERCHANT_SECRET,
    GATEWAY_WEBHOOK_SECRET: env.GATEWAY_WEBHOOK_SECRET,
    METRICS_TOKEN: env.METRICS_TOKEN,
    ANALYZER_SECRET: env.ANALYZER_SECRET,
  };
  const weak = Object.entries(secrets).flatMap(([name, value]) =>
    value === undefined ? [] : [weakSecretProblem(name, value, published)].filter((problem) => problem !== undefined),
  );
  return [...weak, ...sharedSecretProblems(secrets)];
}

/** Parses and validates the environment once. Empty strings count as unset. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const raw = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = envSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`));
  }
  const env = parsed.data;
  let catalog: PlanCatalog;
  try {
    catalog = buildPlanCatalog(env.PRODUCT_SLUG, env.PLAN_OVERRIDES);
  } catch (error) {
    if (error instanceof UnknownPlanError) {
      throw new ConfigError([`PLAN_OVERRIDES: ${error.message} (known ids start with '${env.PRODUCT_SLUG}_')`]);
    }
    throw error;
  }
  const missingSecrets = (Object.keys(DEV_SERVER_SECRETS) as Array<keyof typeof DEV_SERVER_SECRETS>).filter(
    (name) => env[name] === undefined,
  );
  if (env.NODE_ENV === 'production') {
    const problems = [
      ...missingSecrets.map((name) => `${name}: required when NODE_ENV=production`),
      ...weakProductionSecrets(env),
      ...silentProductionSettings(env),
    ];
    if (problems.length > 0) throw new ConfigError(problems);
  }
  if (env.FAULT_INJECTION && env.NODE_ENV !== 'test') throw new ConfigError(['FAULT_INJECTION: only allowed when NODE_ENV=test']);
  if (env.ANALYSIS_QUEUE_PER_CLIENT > env.ANALYSIS_QUEUE_SIZE + 1) {
    throw new ConfigError([
      `ANALYSIS_QUEUE_PER_CLIENT: ${env.ANALYSIS_QUEUE_PER_CLIENT} is more than one running photo plus ANALYSIS_QUEUE_SIZE (${env.ANALYSIS_QUEUE_SIZE}): one client could fill the queue`,
    ]);
  }
  return {
    ...env,
    GATEWAY_MERCHANT_SECRET: env.GATEWAY_MERCHANT_SECRET ?? DEV_SERVER_SECRETS.GATEWAY_MERCHANT_SECRET,
    APP_SECRET: env.APP_SECRET ?? DEV_SERVER_SECRETS.APP_SECRET,
    AUTH_SECRET: env.AUTH_SECRET ?? DEV_SERVER_SECRETS.AUTH_SECRET,
    COOKIE_LINK: env.COOKIE_LINK ?? `/${env.PRODUCT_SLUG}/legal/cookies`,
    PRIVACY_LINK: env.PRIVACY_LINK ?? `/${env.PRODUCT_SLUG}/legal/privacy`,
    TERMS_LINK: env.TERMS_LINK ?? `/${env.PRODUCT_SLUG}/legal/terms`,
    // Development defaults that read as examples (issue 35: a `.local` address on real-looking
    // receipts); production requires all three (productionProblems).
    LEGAL_OPERATOR_NAME: env.LEGAL_OPERATOR_NAME ?? `${env.PRODUCT_NAME} Example Ltd`,
    LEGAL_OPERATOR_ADDRESS: env.LEGAL_OPERATOR_ADDRESS ?? DEV_OPERATOR_ADDRESS,
    LEGAL_CONTACT_EMAIL: env.LEGAL_CONTACT_EMAIL ?? `support@${env.PRODUCT_SLUG}.example.com`,
    gatewayWebhookSecret: env.GATEWAY_WEBHOOK_SECRET ?? (env.NODE_ENV === 'production' ? null : DEV_GATEWAY_WEBHOOK_SECRET),
    publicUrl: (env.PUBLIC_URL ?? `http://${env.HOST}:${env.PORT}`).replace(/\/$/, ''),
    copy: { ...DEFAULT_PRODUCT_COPY, ...env.PRODUCT_COPY },
    catalog,
  };
}
