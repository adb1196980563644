import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { freePort, REPO_ROOT, waitForReady, type AppProcess } from './gateway-process';

/**
 * Starts the analyzer service (apps/analyzer/src/server.ts, through tsx) as its own process on a free
 * port and waits for /readyz (models loaded). Everything it prints goes to `logFile`, so a test can
 * search its logs afterwards. An app never imports another app: this talks HTTP only.
 */
export async function startAnalyzerProcess(logFile: string, env: Record<string, string> = {}): Promise<AppProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const log = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/analyzer/src/server.ts'], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'debug',
      ANALYZER_HOST: '127.0.0.1',
      ANALYZER_PORT: String(port),
      ANALYZER_WORKERS: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code, signal) => {
      log.end();
      resolve(signal === 'SIGKILL' ? 137 : code);
    }),
  );
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    await waitForReady(`${url}/readyz`, 120_000, child);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, child, exited, stop };
}
