import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { buyPlanAsVisitor, latestEmail, signInByEmailCode, uniqueEmail } from './support/session';

/**
 * Issue 24: `npm run dev` works for the whole journey. The test starts it (gateway and server under
 * tsx watch, the Vite dev server) on ports of its own and a fresh data directory, and a visitor buys
 * a plan, gets the receipt and signs in, all through the Vite port, as a developer would.
 */
const OFFSET = Number(process.env.E2E_PORT_OFFSET ?? 0);
const SERVER_PORT = 3170 + OFFSET;
// Not 4190: browsers and fetch refuse it (the Fetch standard's bad ports).
const GATEWAY_PORT = 4170 + OFFSET;
const WEB_PORT = 5170 + OFFSET;
const WEB = `http://127.0.0.1:${WEB_PORT}`;

let dev: ChildProcess | undefined;
const output: string[] = [];

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

test.use({ baseURL: WEB, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test.describe('npm run dev', () => {
  test.setTimeout(420_000);

  test.beforeAll(async () => {
    test.setTimeout(360_000);
    const dataDir = mkdtempSync(join(tmpdir(), 'roots-dev-'));
    // What the runner set for the product it started is not this one's: dev.mjs derives these.
    const inherited = { ...process.env };
    for (const name of ['PUBLIC_URL', 'GATEWAY_MERCHANT_ORIGINS', 'ROOTS_SERVER_URL', 'DATABASE_URL', 'HOST']) delete inherited[name];
    // Its own process group, so the watchers and Vite under `npm run` stop with it.
    dev = spawn('npm', ['run', 'dev', '--silent'], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...inherited,
        NODE_ENV: 'development',
        LOG_LEVEL: 'warn',
        PORT: String(SERVER_PORT),
        DATA_DIR: join(dataDir, 'server'),
        GATEWAY_PORT: String(GATEWAY_PORT),
        GATEWAY_URL: `http://127.0.0.1:${GATEWAY_PORT}`,
        GATEWAY_PUBLIC_URL: `http://127.0.0.1:${GATEWAY_PORT}`,
        GATEWAY_DATA_DIR: join(dataDir, 'gateway'),
        WEB_DEV_PORT: String(WEB_PORT),
      },
    });
    for (const stream of [dev.stdout, dev.stderr]) stream?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const ready = async () =>
      (await answers(`${WEB}/roots/`)) && (await answers(`${WEB}/readyz`)) && (await answers(`http://127.0.0.1:${GATEWAY_PORT}/readyz`));
    const deadline = Date.now() + 300_000;
    while (!(await ready())) {
      // What the three processes printed says why (a port taken, a failed compile).
      if (Date.now() > deadline || dev.exitCode !== null) throw new Error(`npm run dev did not come up:\n${output.join('').slice(-3_000)}`);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  });

  test.afterAll(() => {
    if (dev?.pid) process.kill(-dev.pid, 'SIGTERM');
  });

  test('a visitor buys a plan, gets the receipt and signs in, all through the Vite port', async ({ page }) => {
    const failures: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 500) failures.push(`${response.status()} ${response.url()}`);
    });
    // The page is Vite's (its client script), with the server's own config in it.
    const html = await (await page.request.get('/roots/')).text();
    expect(html).toContain('/@vite/client');
    expect(html).toMatch(/<script type="application\/json" id="roots-config">\{"slug":"roots"/);
    expect(html).toContain(`"gatewayOrigin":"http://127.0.0.1:${GATEWAY_PORT}"`);

    const email = uniqueEmail('dev-server');
    await buyPlanAsVisitor(page, email);
    await expect(page).toHaveURL(new RegExp(`^${WEB}/roots/offers`));

    // The receipt's links lead back to the page the customer used.
    const receipt = await latestEmail(page.request, email, 'receipt');
    expect(receipt.text).toContain(`${WEB}/api/cancel-subscription/`);

    await page.goto('/roots/sign-in');
    await signInByEmailCode(page, email);
    await expect(page).toHaveURL(new RegExp(`^${WEB}/roots/webapp`), { timeout: 30_000 });
    expect(failures).toEqual([]);
  });
});
