import { createAnalysisPool } from '@roots/analysis';
import { metricsAccess, defaultLogFormat, logDestination } from '@roots/observability';
import pino from 'pino';
import { buildAnalyzerApp } from './analyzer-app';
import { loadAnalyzerConfig, type AnalyzerConfig } from './config';

/**
 * `npm run analyzer`: the analysis engine as an HTTP service (ADR 115). Listens at once (so
 * /healthz answers), loads the models in every worker, then reports ready. SIGTERM drains: new
 * photos get 503, photos in hand finish, then the process exits.
 */
async function main(): Promise<void> {
  let config: AnalyzerConfig;
  try {
    config = loadAnalyzerConfig();
  } catch (error) {
    console.error(`roots-analyzer: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(78); // EX_CONFIG
  }
  const logger = pino(
    { level: config.LOG_LEVEL, base: { service: 'analyzer', pid: process.pid } },
    logDestination(config.LOG_FORMAT ?? defaultLogFormat(process.env.NODE_ENV)),
  );
  const pool = createAnalysisPool({ size: config.workers, maxQueue: config.maxQueue + config.workers });
  const app = buildAnalyzerApp({
    engine: pool,
    queue: { concurrency: config.workers, maxWaiting: config.maxQueue, perClient: config.perClient },
    logger,
    secret: config.ANALYZER_SECRET,
    metricsAccess: metricsAccess(config.METRICS_TOKEN, config.NODE_ENV),
  });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal, held: app.analyzer.held() }, 'draining');
    const timer = setTimeout(() => {
      logger.error('drain timed out; exiting');
      process.exit(1);
    }, config.ANALYZER_DRAIN_TIMEOUT_MS);
    timer.unref();
    await app.analyzer.drain();
    await app.close();
    await pool.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ host: config.ANALYZER_HOST, port: config.ANALYZER_PORT });
  await pool.warmUp();
  app.analyzer.markReady();
  logger.info({ workers: pool.size, capacity: config.workers + config.maxQueue, perClient: config.perClient }, 'roots analyzer ready');
}

void main();
