import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OperatorRole } from '@roots/contracts/admin';

/** The header the admin journeys' server trusts for the visitor's country (COUNTRY_HEADER). */
export const COUNTRY_HEADER = 'x-e2e-country';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export type ProductServer = { url: string; gatewayUrl: string; stop(): Promise<void> };

/**
 * A product server of its own for the operator journeys: a fresh embedded database in which
 * `npm run operator:add -- <email> [--role <role>]` runs first for each operator (PGlite has one process at a time, so before the
 * server starts), then the built server on it, against the suite's gateway. The country of a
 * request comes from {@link COUNTRY_HEADER}, as behind a CDN.
 */
export async function startProductServer(
  operators: ReadonlyArray<{ email: string; role?: OperatorRole }>,
  extraEnv: Record<string, string> = {},
): Promise<ProductServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'roots-e2e-admin-'));
  const gatewayUrl = `http://127.0.0.1:${4100 + Number(process.env.E2E_PORT_OFFSET ?? 0)}`;
  const port = await freePort();
  const env = {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    GATEWAY_URL: gatewayUrl,
    TRUST_PROXY: 'true',
    COUNTRY_HEADER,
    // Visits with wmq=1 are tracked: the funnel counts them (docs/metrics.md).
    TRACKING_ENABLED: 'true',
    RATE_LIMIT_PER_MINUTE: '6000',
    EMAIL_RATE_LIMIT_PER_HOUR: '1000',
    GATEWAY_CLIENT_BUDGET_PER_MINUTE: '100000',
    GATEWAY_CLIENT_PURCHASE_BUDGET_PER_MINUTE: '100000',
    SIGN_IN_CODES_PER_IP_PER_HOUR: '100000',
    SIGN_IN_CODE_RESEND_SECONDS: '0',
    SIGN_IN_CODE_RESENDS_PER_DAY: '100000',
    SIGN_IN_GUESSES_PER_EMAIL_PER_MINUTE: '100000',
    SIGN_IN_GUESSES_PER_IP_PER_HOUR: '100000',
    ...extraEnv,
  };
  for (const operator of operators) {
    const role = operator.role ? ['--role', operator.role] : [];
    const added = execFileSync('npm', ['run', '--silent', 'operator:add', '--', operator.email, ...role], { env, encoding: 'utf8' });
    if (!added.includes('is now an operator')) throw new Error(`operator:add said: ${added}`);
  }
  const child: ChildProcess = spawn(process.execPath, ['apps/server/dist/server.js'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGTERM');
      throw new Error('the admin journeys’ product server did not get ready');
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    gatewayUrl,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
