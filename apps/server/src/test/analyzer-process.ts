import type { AppProcess } from './gateway-process';
import { freePort } from './gateway-process';
import { startLoggedProcess } from './logged-process';

/**
 * Starts the analyzer service (apps/analyzer/src/server.ts) as its own process, one worker, on
 * `port` (default: a free one), logging to `logFile`, and waits for /readyz (models loaded). An app
 * never imports another app: this talks HTTP only.
 */
export async function startAnalyzerProcess(logFile: string, env: Record<string, string> = {}, port?: number): Promise<AppProcess> {
  const listenPort = port ?? (await freePort());
  return startLoggedProcess(
    'apps/analyzer/src/server.ts',
    { LOG_LEVEL: 'debug', ANALYZER_HOST: '127.0.0.1', ANALYZER_PORT: String(listenPort), ANALYZER_WORKERS: '1', ...env },
    logFile,
    `http://127.0.0.1:${listenPort}/readyz`,
  );
}
