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
import { z } from 'zod';

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
 * Every environment variable the server reads. `.env.example` documents each one;
 * a test keeps the two in step.
 */
export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: port.default(3000),
  /** Public origin of the server, e.g. https://roots.example; defaults to http://HOST:PORT. */
  PUBLIC_URL: z.url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
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
  COOKIE_LINK: z.string().default('/legal/cookies'),
  PRIVACY_LINK: z.string().default('/legal/privacy'),
  TERMS_LINK: z.string().default('/legal/terms'),
  TRACKING_ENABLED: booleanFlag.default(false),
  /** Trusted reverse proxies in front of the server: 'false' (default), 'true' (any), or a comma-separated list of addresses/CIDRs. */
  TRUST_PROXY: z.string().default('false'),
});

export type Env = z.infer<typeof envSchema>;

export type Config = Env & {
  publicUrl: string;
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
  return {
    ...env,
    publicUrl: (env.PUBLIC_URL ?? `http://${env.HOST}:${env.PORT}`).replace(/\/$/, ''),
    copy: { ...DEFAULT_PRODUCT_COPY, ...env.PRODUCT_COPY },
    catalog,
  };
}
