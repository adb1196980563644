import { buildApp, type RootsApp } from '../app';
import { loadConfig, type Config } from '../config/env';
import type { Database } from '../db/database';
import type { Clock } from '../lib/clock';
import { GatewayProxy } from './gateway-proxy';
import { makeWebDist, openTestDatabase, RELAXED_CLIENT_LIMITS } from './helpers';

/** The product listening on a loopback port, paying through a recording proxy in front of the gateway. */
export type ProductOverHttp = {
  database: Database;
  app: RootsApp;
  config: Config;
  /** The product's origin, e.g. `http://127.0.0.1:40123`. */
  base: string;
  proxy: GatewayProxy;
  close(): Promise<void>;
};

/**
 * Starts the product app on a fresh test database and a port of its own, with its gateway calls going
 * through a {@link GatewayProxy} of `gatewayUrl` (the gateway process the test file started). Rate
 * limits are out of the way; `env` adds or overrides configuration.
 *
 * @example
 * const product = await startProductOverHttp({ databaseUrl: url, gatewayUrl: gateway.url, clock, env: { SMTP_URL: smtp.url } });
 */
export async function startProductOverHttp(options: {
  databaseUrl: string | undefined;
  gatewayUrl: string;
  clock: Clock;
  env?: Record<string, string>;
}): Promise<ProductOverHttp> {
  const database = await openTestDatabase(options.databaseUrl);
  const proxy = new GatewayProxy(options.gatewayUrl);
  await proxy.start();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: makeWebDist(),
    GATEWAY_URL: proxy.url,
    RATE_LIMIT_PER_MINUTE: '100000',
    EMAIL_RATE_LIMIT_PER_HOUR: '100000',
    ...RELAXED_CLIENT_LIMITS,
    ...options.env,
  });
  const app = await buildApp({ config, database, clock: options.clock });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    database,
    app,
    config,
    base,
    proxy,
    async close() {
      await app.close();
      await proxy.stop();
      await database.close();
    },
  };
}
