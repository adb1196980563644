import { existsSync } from 'node:fs';
import pino from 'pino';
import { buildGatewayApp, GATEWAY_LOG_REDACT_PATHS } from './app';
import { GatewayConfigError, loadGatewayConfig, type GatewayConfig } from './config/env';

const SHUTDOWN_TIMEOUT_MS = 10_000;

async function main(): Promise<void> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  let config: GatewayConfig;
  try {
    config = loadGatewayConfig();
  } catch (error) {
    if (error instanceof GatewayConfigError) {
      console.error(`roots-gateway: ${error.message}`);
      process.exit(78);
    }
    throw error;
  }
  if (process.argv.includes('--check-config')) {
    console.info(`roots-gateway: configuration ok (${config.publicUrl})`);
    return;
  }
  const logger = pino({ level: config.LOG_LEVEL, redact: GATEWAY_LOG_REDACT_PATHS });
  const app = await buildGatewayApp({ config, loggerInstance: logger });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'gateway shutting down');
    setTimeout(() => process.exit(1), SHUTDOWN_TIMEOUT_MS).unref();
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ host: config.GATEWAY_HOST, port: config.GATEWAY_PORT });
  logger.info({ url: config.publicUrl }, 'roots gateway ready');
}

void main();
