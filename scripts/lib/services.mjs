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
 * The URLs of gateway and server and the environment both run with: the server follows the
 * gateway's address, and the gateway delivers its signed webhooks (final payments, refunds,
 * disputes) to the server's /api/gateway/webhooks, as a production merchant configures it. Each can
 * be set by hand (an empty GATEWAY_WEBHOOK_URLS sends none).
 */
export function serviceEnv(env) {
  const gatewayUrl = `http://${env.GATEWAY_HOST ?? '127.0.0.1'}:${env.GATEWAY_PORT ?? 4000}`;
  const serverUrl = `http://${env.HOST ?? '127.0.0.1'}:${env.PORT ?? 3000}`;
  const childEnv = {
    ...env,
    GATEWAY_URL: env.GATEWAY_URL ?? gatewayUrl,
    GATEWAY_WEBHOOK_URLS: env.GATEWAY_WEBHOOK_URLS ?? `${serverUrl}/api/gateway/webhooks`,
  };
  return { gatewayUrl, serverUrl, childEnv };
}

/**
 * Starts gateway and server from their builds with `env`, resolves when both answer /readyz.
 * @returns the children and a stop() that ends both.
 */
export async function startServices(env, { stdio = 'inherit' } = {}) {
  const { gatewayUrl, serverUrl, childEnv } = serviceEnv({ ...process.env, ...env });
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
