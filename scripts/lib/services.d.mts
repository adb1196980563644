import type { ChildProcess } from 'node:child_process';

/** Starts the built gateway and server with `env` and resolves when both answer /readyz. */
export function startServices(
  env: Record<string, string>,
  options?: { stdio?: 'inherit' | 'ignore' | 'pipe' },
): Promise<{ gateway: ChildProcess; server: ChildProcess; gatewayUrl: string; serverUrl: string; stop(): void }>;

/** The URLs of gateway and server and the environment both run with (the gateway's webhooks go to the server by default). */
export function serviceEnv(env: Record<string, string | undefined>): {
  gatewayUrl: string;
  serverUrl: string;
  childEnv: Record<string, string | undefined>;
};
