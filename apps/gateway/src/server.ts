import { existsSync } from 'node:fs';
import pino from 'pino';
import { buildGatewayApp, gatewayLoggerOptions } from './app';
import { GatewayConfigError, loadGatewayConfig, type GatewayConfig } from './config/env';
import { defaultLogFormat, logDestination } from '@roots/observability';

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
  const logger = pino(gatewayLoggerOptions(config.LOG_LEVEL), logDestination(config.LOG_FORMAT ?? defaultLogFormat(config.NODE_ENV)));
  if (config.devSecrets.length > 0)
    logger.warn({ secrets: config.devSecrets }, 'using DEVELOPMENT default secrets; set them before any real use');
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

  const address = await app.listen({ host: config.GATEWAY_HOST, port: config.GATEWAY_PORT });
  // With port 0 the OS picks one: links must carry the real address.
  if (config.GATEWAY_PORT === 0 && !config.GATEWAY_PUBLIC_URL) config.publicUrl = address;
  logger.info({ url: config.publicUrl }, 'roots gateway ready');
}

void main();
