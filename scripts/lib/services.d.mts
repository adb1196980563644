import type { ChildProcess } from 'node:child_process';

/** Starts the built gateway and server with `env` and resolves when both answer /readyz. */
export function startServices(
  env: Record<string, string>,
  options?: { stdio?: 'inherit' | 'ignore' | 'pipe' },
): Promise<{ gateway: ChildProcess; server: ChildProcess; gatewayUrl: string; serverUrl: string; stop(): void }>;
