import { freePort, startAppProcess, type AppProcess } from './gateway-process';
import { makeWebDist } from './helpers';

export type ServerProcess = AppProcess;

/** Starts `apps/server/src/server.ts` as its own process (fault tests kill it) and waits for /readyz. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  return startAppProcess('apps/server/src/server.ts', `http://127.0.0.1:${port}`, {
    HOST: '127.0.0.1',
    PORT: String(port),
    WEB_DIST_DIR: makeWebDist(),
    ...env,
  });
}
