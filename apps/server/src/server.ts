import { existsSync } from 'node:fs';
import { APP_VERSION } from '@roots/contracts';
import { buildApp, serverLoggerOptions } from './app';
import { ConfigError, loadConfig, type Config } from './config/env';
import { openDatabase, type Database } from './db/database';
import { serverStarts } from './db/schema';
import pino from 'pino';
import { BillingScheduler } from './modules/billing/billing.scheduler';
import { copyWarnings, formatCopyWarning } from './modules/public-config/public-config';
import { defaultLogFormat, logDestination } from '@roots/observability';

/** Seconds a graceful shutdown may take before the process exits anyway. */
const SHUTDOWN_TIMEOUT_MS = 10_000;

async function main(): Promise<void> {
  if (existsSync('.env')) process.loadEnvFile('.env');

  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      // Nothing has started yet: report and stop.
      console.error(`roots-server: ${error.message}`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }

  const warnings = copyWarnings(config).map(formatCopyWarning);
  if (process.argv.includes('--check-config')) {
    for (const warning of warnings) console.warn(`roots-server: ${warning}`);
    console.info(
      `roots-server: configuration ok (slug '${config.PRODUCT_SLUG}', database ${config.DATABASE_URL ? 'DATABASE_URL' : `PGlite in ${config.DATA_DIR}`})`,
    );
    return;
  }

  const logger = pino(serverLoggerOptions(config.LOG_LEVEL), logDestination(config.LOG_FORMAT ?? defaultLogFormat(config.NODE_ENV)));
  logger.info({ version: APP_VERSION, slug: config.PRODUCT_SLUG }, 'roots server starting');
  for (const warning of warnings) logger.warn(warning);

  let database: Database;
  try {
    database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR });
    await database.migrate();
  } catch (error) {
    logger.fatal({ err: error }, `database unavailable (${config.DATABASE_URL ? 'DATABASE_URL' : 'DATA_DIR'})`);
    process.exit(1);
  }
  // `--migrate` (a Kubernetes init container, docs/operations.md): the schema only, then exit, so a
  // new version's pods take traffic only on a migrated database.
  if (process.argv.includes('--migrate')) {
    await database.close();
    logger.info({ database: database.kind }, 'migrations applied');
    return;
  }
  await database.db.insert(serverStarts).values({ version: APP_VERSION, productSlug: config.PRODUCT_SLUG });

  const app = await buildApp({ config, database, loggerInstance: logger });
  const scheduler = config.BILLING_SCHEDULER_ENABLED ? new BillingScheduler(app.roots.billing, config.BILLING_TICK_MS, logger) : undefined;

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error('shutdown timed out; exiting');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    await scheduler?.stop();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ host: config.HOST, port: config.PORT });
  scheduler?.start();
  logger.info({ url: `${config.publicUrl}/${config.PRODUCT_SLUG}/`, database: database.kind }, 'roots server ready');
}

void main();
