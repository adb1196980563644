import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, REPO_ROOT, waitForReady } from '../../apps/server/src/test/gateway-process';

/** The product as a visitor meets it: the built server and gateway, each its own process. */
export type RunningProduct = { url: string; slug: string; stop(): Promise<void> };

const SERVER_ENTRY = join(REPO_ROOT, 'apps/server/dist/server.js');
const GATEWAY_ENTRY = join(REPO_ROOT, 'apps/gateway/dist/server.js');
const READY_TIMEOUT_MS = 90_000;

/** Runs an npm script from the repository root and fails loudly if it fails. */
function npm(args: string[]): void {
  const result = spawnSync('npm', args, { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error(`npm ${args.join(' ')} exited with ${result.status}`);
}

/**
 * Builds apps/web into a fresh temporary folder (so apps/web/dist, which the browser tests serve,
 * is left alone) and, when they are missing, the server and gateway bundles.
 * @returns the folder holding the web build
 */
export function buildProduct(): string {
  if (!existsSync(SERVER_ENTRY) || !existsSync(GATEWAY_ENTRY)) npm(['run', 'build', '--silent']);
  const outDir = mkdtempSync(join(tmpdir(), 'roots-bench-web-dist-'));
  npm(['exec', '--workspace', 'apps/web', '--', 'vite', 'build', '--logLevel', 'error', '--outDir', outDir, '--emptyOutDir']);
  return outDir;
}

function start(entry: string, env: Record<string, string>, readyUrl: string): { child: ChildProcess; ready: Promise<void> } {
  const child = spawn(process.execPath, [entry], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return { child, ready: waitForReady(readyUrl, READY_TIMEOUT_MS, child) };
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/**
 * Starts the built gateway and server on free loopback ports with a throw-away data folder (the
 * environment the Playwright config gives them), serving the web build in `webDistDir`.
 */
export async function startProduct(webDistDir: string, slug = 'roots'): Promise<RunningProduct> {
  const dataDir = mkdtempSync(join(tmpdir(), 'roots-bench-web-data-'));
  const [serverPort, gatewayPort] = [await freePort(), await freePort()];
  const env = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    PRODUCT_SLUG: slug,
    HOST: '127.0.0.1',
    PORT: String(serverPort),
    DATA_DIR: dataDir,
    WEB_DIST_DIR: webDistDir,
    GATEWAY_DATA_DIR: join(dataDir, 'gateway'),
    GATEWAY_HOST: '127.0.0.1',
    GATEWAY_PORT: String(gatewayPort),
    GATEWAY_URL: `http://127.0.0.1:${gatewayPort}`,
  };
  const gateway = start(GATEWAY_ENTRY, env, `${env.GATEWAY_URL}/readyz`);
  const server = start(SERVER_ENTRY, env, `http://127.0.0.1:${serverPort}/readyz`);
  const stop = async () => {
    await Promise.all([stopChild(server.child), stopChild(gateway.child)]);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await Promise.all([gateway.ready, server.ready]);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `http://127.0.0.1:${serverPort}`, slug, stop };
}
