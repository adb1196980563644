import { spawn, type ChildProcess } from 'node:child_process';
import { freePort, REPO_ROOT, waitForReady } from './gateway-process';
import { makeWebDist } from './helpers';

export type ServerProcess = { url: string; child: ChildProcess; exited: Promise<number | null>; stop(): Promise<void> };

/** Starts `apps/server/src/server.ts` as its own process (fault tests kill it) and waits for /readyz. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      WEB_DIST_DIR: makeWebDist(),
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code, signal) => resolve(signal ? 137 : code)));
  await waitForReady(`${url}/readyz`, 60_000, child);
  return {
    url,
    child,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
