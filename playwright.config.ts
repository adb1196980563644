import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

/** Ports of the product started for the browser tests (apart from the dev defaults 3000/4000). */
export const E2E_SERVER_PORT = 3100;
export const E2E_GATEWAY_PORT = 4100;

/** Launch flags for Debian's Chromium on these machines (STYLE.md). */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const dataDir = mkdtempSync(join(tmpdir(), 'roots-e2e-'));
const env = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'warn',
  HOST: '127.0.0.1',
  PORT: String(E2E_SERVER_PORT),
  DATA_DIR: dataDir,
  GATEWAY_HOST: '127.0.0.1',
  GATEWAY_PORT: String(E2E_GATEWAY_PORT),
  GATEWAY_URL: `http://127.0.0.1:${E2E_GATEWAY_PORT}`,
};

export default defineConfig({
  testDir: 'e2e',
  // The checkout journeys start their own gateway and merchant site: e2e/checkout/playwright.config.ts.
  testIgnore: ['checkout/**'],
  fullyParallel: false,
  workers: 1,
  forbidOnly: true,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: '.cache/playwright.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${E2E_SERVER_PORT}`,
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS },
    trace: 'retain-on-failure',
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: [
    {
      command: 'node apps/gateway/dist/server.js',
      url: `http://127.0.0.1:${E2E_GATEWAY_PORT}/readyz`,
      env,
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      command: 'node apps/server/dist/server.js',
      url: `http://127.0.0.1:${E2E_SERVER_PORT}/readyz`,
      env,
      reuseExistingServer: false,
      timeout: 90_000,
    },
  ],
});
