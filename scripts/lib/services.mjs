// Starts the built gateway and server as child processes and waits until both are ready.
import { spawn } from 'node:child_process';

const READY_TIMEOUT_MS = 90_000;

async function waitForReady(url, child, name) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode} before it was ready`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${name} not ready at ${url} after ${READY_TIMEOUT_MS / 1000}s`);
}

/**
 * Starts gateway and server from their builds with `env`, resolves when both answer /readyz.
 * @returns the children and a stop() that ends both.
 */
export async function startServices(env, { stdio = 'inherit' } = {}) {
  const gatewayUrl = `http://${env.GATEWAY_HOST ?? '127.0.0.1'}:${env.GATEWAY_PORT ?? 4000}`;
  const serverUrl = `http://${env.HOST ?? '127.0.0.1'}:${env.PORT ?? 3000}`;
  const childEnv = { ...process.env, ...env, GATEWAY_URL: env.GATEWAY_URL ?? gatewayUrl };
  const gateway = spawn(process.execPath, ['apps/gateway/dist/server.js'], { env: childEnv, stdio });
  const server = spawn(process.execPath, ['apps/server/dist/server.js'], { env: childEnv, stdio });
  const stop = () => {
    for (const child of [server, gateway]) if (child.exitCode === null) child.kill('SIGTERM');
  };
  try {
    await Promise.all([waitForReady(`${gatewayUrl}/readyz`, gateway, 'gateway'), waitForReady(`${serverUrl}/readyz`, server, 'server')]);
  } catch (error) {
    stop();
    throw error;
  }
  return { gateway, server, gatewayUrl, serverUrl, stop };
}
