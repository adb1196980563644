import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import pino from 'pino';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config/env';
import type { Database } from './db/database';
import { healthRoutes } from './modules/health/health.routes';
import { planRoutes } from './modules/plans/plans.routes';
import { buildPublicConfig } from './modules/public-config/public-config';
import { publicConfigRoutes } from './modules/public-config/public-config.routes';
import { registerErrorHandler } from './plugins/error-handler';
import { registerSpa } from './plugins/spa';

export type AppDependencies = {
  config: Config;
  database: Database;
  /** A pino logger to use; when absent the app makes its own from LOG_LEVEL. */
  loggerInstance?: FastifyBaseLogger;
};

/** Log fields that must never be written in clear (architecture: no emails, tokens, card data, images). */
export const LOG_REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  '*.email',
  '*.image',
  '*.password',
  '*.token',
  '*.card',
];

function trustProxySetting(value: string): boolean | string[] {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return value.split(',').map((address) => address.trim());
}

/** Default location of the built web app, relative to this package (source or bundle). */
function defaultWebDist(): string {
  return resolve(fileURLToPath(new URL('.', import.meta.url)), '../../web/dist');
}

/** Builds the Fastify app without listening; tests call `inject()` on it. */
export async function buildApp({ config, database, loggerInstance }: AppDependencies) {
  const app = Fastify({
    loggerInstance: loggerInstance ?? pino({ level: config.LOG_LEVEL, redact: LOG_REDACT_PATHS }),
    trustProxy: trustProxySetting(config.TRUST_PROXY),
    bodyLimit: 1_048_576,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);

  const publicConfig = buildPublicConfig(config);
  await app.register(healthRoutes, { database });
  await app.register(planRoutes, { catalog: config.catalog });
  await app.register(publicConfigRoutes, { publicConfig });
  await registerSpa(app, {
    slug: config.PRODUCT_SLUG,
    productName: config.PRODUCT_NAME,
    distDir: config.WEB_DIST_DIR ?? defaultWebDist(),
    publicConfig,
  });
  return app;
}
