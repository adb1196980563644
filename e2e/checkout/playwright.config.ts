import { defineConfig } from '@playwright/test';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../support/chromium';

/**
 * Checkout journeys on their own: each worker starts its own gateway (with the secure-fields
 * plugin) and merchant site (support/start-stack.ts), so no root web server is needed.
 * Run: npx playwright test -c e2e/checkout (after building packages/checkout and packages/secure-fields).
 */
export default defineConfig({
  testDir: '.',
  fullyParallel: false,
  workers: 1,
  forbidOnly: true,
  retries: 0,
  timeout: 90_000,
  reporter: [['list'], ['json', { outputFile: '../../.cache/playwright-checkout.json' }]],
  use: {
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS },
    trace: 'retain-on-failure',
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});
