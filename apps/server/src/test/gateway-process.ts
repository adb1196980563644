import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The repository root, from this file (apps/server/src/test). */
export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** A free TCP port on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Polls `url` until it answers 200 or `timeoutMs` passes. */
export async function waitForReady(url: string, timeoutMs: number, child?: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`${url}: process exited with ${child.exitCode}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms`);
}

/** An app of this repository running as its own process; `exited` settles with its exit code (137 when killed). */
export type AppProcess = { url: string; child: ChildProcess; exited: Promise<number | null>; stop(): Promise<void> };
export type GatewayProcess = AppProcess;

/**
 * Runs the TypeScript entry `entry` (through tsx, from the repository root) with `env` on top of a
 * test environment, and waits for `url`/readyz. A child that never gets ready is stopped.
 */
export async function startAppProcess(entry: string, url: string, env: Record<string, string>): Promise<AppProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code, signal) => resolve(signal ? 137 : code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    await waitForReady(`${url}/readyz`, 60_000, child);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, child, exited, stop };
}

/**
 * Starts the real payment gateway (apps/gateway/src/server.ts) as its own process on a free
 * port, in-memory, and waits for /readyz. An app never imports another app: this talks HTTP only.
 */
export async function startGatewayProcess(env: Record<string, string> = {}): Promise<GatewayProcess> {
  const port = await freePort();
  return startAppProcess('apps/gateway/src/server.ts', `http://127.0.0.1:${port}`, {
    GATEWAY_HOST: '127.0.0.1',
    GATEWAY_PORT: String(port),
    GATEWAY_DATA_DIR: 'memory://',
    GATEWAY_RATE_LIMIT_PER_MINUTE: '100000',
    ...env,
  });
}
