import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './e2e/support/chromium';
import { GOOGLE_TYPE_PROVIDER, oidcProviderEnv } from './e2e/support/oidc-provider.config';
import { CAMERA_Y4M } from './e2e/support/paths';
import { E2E_PRODUCT_COPY } from './e2e/support/product-copy';

/** Ports of the product started for the browser tests (apart from the dev defaults 3000/4000); `E2E_PORT_OFFSET` moves them. */
const E2E_PORT_OFFSET = Number(process.env.E2E_PORT_OFFSET ?? 0);
const E2E_SERVER_PORT = 3100 + E2E_PORT_OFFSET;
const E2E_GATEWAY_PORT = 4100 + E2E_PORT_OFFSET;

const dataDir = mkdtempSync(join(tmpdir(), 'roots-e2e-'));

/**
 * With a PostgreSQL server (npm test starts one: TEST_DATABASE_URL), the product under test uses a
 * fresh database on it, so journeys can check what was stored. Workers inherit the runner's choice.
 */
function e2eDatabaseUrl(): string | undefined {
  if (process.env.E2E_DATABASE_URL) return process.env.E2E_DATABASE_URL;
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return undefined;
  const name = `e2e_${process.pid}_${Date.now()}`;
  execFileSync('psql', [base, '-qc', `create database ${name}`]);
  const url = new URL(base);
  url.pathname = `/${name}`;
  process.env.E2E_DATABASE_URL = url.toString();
  return process.env.E2E_DATABASE_URL;
}
const databaseUrl = e2eDatabaseUrl();
/** E2E_ANALYZERS=n: the server sends photos to n analyzer services (ANALYSIS_URLS) instead of its own worker pool. */
const analyzerPorts = Array.from({ length: Number(process.env.E2E_ANALYZERS ?? 0) }, (_, index) => 5100 + E2E_PORT_OFFSET + index);
const env = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'warn',
  HOST: '127.0.0.1',
  PORT: String(E2E_SERVER_PORT),
  DATA_DIR: dataDir,
  GATEWAY_DATA_DIR: join(dataDir, 'gateway'),
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  GATEWAY_HOST: '127.0.0.1',
  GATEWAY_PORT: String(E2E_GATEWAY_PORT),
  GATEWAY_URL: `http://127.0.0.1:${E2E_GATEWAY_PORT}`,
  PRODUCT_COPY: JSON.stringify(E2E_PRODUCT_COPY),
  // White-label legal pages: the journeys check these appear (e2e/legal).
  LEGAL_OPERATOR_NAME: 'Roots Test Operator Ltd',
  LEGAL_CONTACT_EMAIL: 'privacy@roots.example',
};

export default defineConfig({
  testDir: 'e2e',
  // The checkout journeys start their own gateway and merchant site: e2e/checkout/playwright.config.ts.
  testIgnore: ['checkout/**'],
  globalSetup: './e2e/support/global-setup.ts',
  fullyParallel: false,
  workers: 1,
  forbidOnly: true,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: '.cache/playwright.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${E2E_SERVER_PORT}`,
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS },
    trace: 'retain-on-failure',
  },
  projects: [
    { name: 'chromium', testIgnore: ['funnel/**', 'checkout/**'], use: { browserName: 'chromium' } },
    {
      // The funnel journey with Chromium's fake camera fed a real face (e2e/support/global-setup.ts).
      name: 'funnel',
      testMatch: ['funnel/**/*.spec.ts'],
      use: {
        browserName: 'chromium',
        permissions: ['camera'],
        launchOptions: {
          executablePath: CHROMIUM_PATH,
          args: [
            ...CHROMIUM_FLAGS,
            '--use-fake-device-for-media-stream',
            '--use-fake-ui-for-media-stream',
            `--use-file-for-fake-video-capture=${CAMERA_Y4M}`,
          ],
        },
      },
    },
  ],
  webServer: [
    {
      // The Google-type and Apple-type OpenID Connect providers of the sign-in journeys (e2e/sign-in).
      command: 'npx tsx e2e/support/oidc-provider.ts',
      url: `${GOOGLE_TYPE_PROVIDER.issuer}/.well-known/openid-configuration`,
      env: { OIDC_PRODUCT_ORIGIN: `http://127.0.0.1:${E2E_SERVER_PORT}` },
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      command: 'node apps/gateway/dist/server.js',
      url: `http://127.0.0.1:${E2E_GATEWAY_PORT}/readyz`,
      env,
      reuseExistingServer: false,
      timeout: 60_000,
    },
    ...analyzerPorts.map((port) => ({
      command: 'node apps/analyzer/dist/server.js',
      url: `http://127.0.0.1:${port}/readyz`,
      env: { NODE_ENV: 'test', LOG_LEVEL: 'warn', ANALYZER_PORT: String(port), ANALYZER_WORKERS: '1' },
      reuseExistingServer: false,
      timeout: 120_000,
    })),
    {
      command: 'node apps/server/dist/server.js',
      url: `http://127.0.0.1:${E2E_SERVER_PORT}/readyz`,
      // Every journey comes from one client IP, so the per-IP limit is raised above what the suite sends.
      env: {
        ...env,
        ...oidcProviderEnv(),
        RATE_LIMIT_PER_MINUTE: '6000',
        // Every journey signs in and pays from one client IP: the per-client limits are proven in
        // modules/auth/sign-in-limits.test.ts and plugins/merchant-api-budget.test.ts.
        GATEWAY_CLIENT_BUDGET_PER_MINUTE: '100000',
        GATEWAY_CLIENT_PURCHASE_BUDGET_PER_MINUTE: '100000',
        SIGN_IN_CODES_PER_IP_PER_HOUR: '100000',
        SIGN_IN_CODE_RESEND_SECONDS: '0',
        SIGN_IN_CODE_RESENDS_PER_DAY: '100000',
        SIGN_IN_GUESSES_PER_EMAIL_PER_MINUTE: '100000',
        SIGN_IN_GUESSES_PER_IP_PER_HOUR: '100000',
        // Journeys that make a renewal due see the billing job run within seconds.
        BILLING_TICK_MS: '2000',
        // The payment sweep (ADR 127) runs every 2 s and refunds an unclaimed payment 10 s after it was
        // paid, so a journey sees a late first payment refunded (e2e/payments/three-ds-abandoned.spec.ts).
        PAYMENT_SWEEP_INTERVAL_MS: '2000',
        PAYMENT_SWEEP_GRACE_MS: '10000',
        ...(analyzerPorts.length > 0 ? { ANALYSIS_URLS: analyzerPorts.map((port) => `http://127.0.0.1:${port}`).join(',') } : {}),
      },
      reuseExistingServer: false,
      timeout: 90_000,
    },
  ],
});
