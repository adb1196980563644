import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { REPO_ROOT, waitForReady, type AppProcess } from './gateway-process';

/**
 * Runs a TypeScript entry of this repository (through tsx) as its own process with `env`, appending
 * everything it prints to `logFile` (a test or bench searches the logs afterwards), and waits for
 * `readyUrl`. `exited` settles with 137 after a kill -9.
 */
export async function startLoggedProcess(
  entry: string,
  env: Record<string, string>,
  logFile: string,
  readyUrl: string,
  readyTimeoutMs = 120_000,
): Promise<AppProcess> {
  const log = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', ...env },
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
    await waitForReady(readyUrl, readyTimeoutMs, child);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: readyUrl.replace(/\/readyz$/, ''), child, exited, stop };
}
