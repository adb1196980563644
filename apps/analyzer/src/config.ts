import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { LOG_FORMATS } from '@roots/observability';

/** Every environment variable the analyzer reads (documented in `.env.example`). */
export const analyzerEnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /**
   * Secret the servers send as a bearer token (their ANALYZER_SECRET); unset, anyone who reaches the
   * analyzer may use it, which only development allows (issue 22).
   */
  ANALYZER_SECRET: z.string().min(32).optional(),
  /** Bearer token a Prometheus scraper sends to `GET /metrics`. Unset: open outside production, no `/metrics` in production. */
  METRICS_TOKEN: z.string().min(32).optional(),
  ANALYZER_HOST: z.string().min(1).default('127.0.0.1'),
  ANALYZER_PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  /** Worker threads, each with its own models (~200–290 MB); default: available cores. */
  ANALYZER_WORKERS: z.coerce.number().int().min(1).max(64).optional(),
  /** Photos waiting for a worker beyond the ones running; one more answers 503 with retry-after. Default: 4 per worker. */
  ANALYZER_MAX_QUEUE: z.coerce.number().int().min(0).max(10_000).optional(),
  /**
   * Places (running or waiting) one client may hold: a shopper as the server names it in
   * `x-roots-client`, else the calling address; one more answers 429 with retry-after (ADR 165).
   * Default: a quarter of all places (at least one), so that four clients never fill the analyzer.
   */
  ANALYZER_QUEUE_PER_CLIENT: z.coerce.number().int().min(1).max(1_000).optional(),
  /** After SIGTERM, how long analyses in progress may take before the process exits anyway. */
  ANALYZER_DRAIN_TIMEOUT_MS: z.coerce.number().int().min(0).default(30_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `pretty` (lines a person reads) or `json` (a JSON object a line); default: pretty in development, json otherwise. */
  LOG_FORMAT: z.enum(LOG_FORMATS).optional(),
});

export type AnalyzerConfig = z.infer<typeof analyzerEnvSchema> & { workers: number; maxQueue: number; perClient: number };

/** Parses the environment once; empty strings count as unset. @throws Error naming each bad variable. */
export function loadAnalyzerConfig(source: NodeJS.ProcessEnv = process.env): AnalyzerConfig {
  const raw = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = analyzerEnvSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(
      `Invalid configuration:\n${parsed.error.issues.map((issue) => `  - ${issue.path.join('.')}: ${issue.message}`).join('\n')}`,
    );
  }
  if (parsed.data.NODE_ENV === 'production' && parsed.data.ANALYZER_SECRET === undefined) {
    throw new Error(
      'Invalid configuration:\n  - ANALYZER_SECRET: required when NODE_ENV=production (the servers send it; nobody else may analyze)',
    );
  }
  const workers = parsed.data.ANALYZER_WORKERS ?? availableParallelism();
  const maxQueue = parsed.data.ANALYZER_MAX_QUEUE ?? workers * 4;
  const places = workers + maxQueue;
  const perClient = parsed.data.ANALYZER_QUEUE_PER_CLIENT ?? Math.max(1, Math.floor(places / 4));
  if (perClient > places) {
    throw new Error(
      `Invalid configuration:\n  - ANALYZER_QUEUE_PER_CLIENT: ${perClient} is more than the ${places} places (ANALYZER_WORKERS + ANALYZER_MAX_QUEUE)`,
    );
  }
  return { ...parsed.data, workers, maxQueue, perClient };
}
