import { LOG_LEVELS, type LogLevel } from '../config/client-config';

export type Logger = {
  debug(message: string, data?: unknown): void;
  info(message: string, data?: unknown): void;
  warn(message: string, data?: unknown): void;
  error(message: string, data?: unknown): void;
};

/** Console logger filtered by level (default ERROR). Never log card data: the parent holds none. */
export function createLogger(level: LogLevel = 'ERROR', sink: Pick<Console, 'info' | 'warn' | 'error'> = console): Logger {
  const min = LOG_LEVELS.indexOf(level);
  const at = (name: LogLevel, write: (...args: unknown[]) => void) => (message: string, data?: unknown) => {
    if (LOG_LEVELS.indexOf(name) >= min) write(`[roots-checkout] ${message}`, ...(data === undefined ? [] : [data]));
  };
  return { debug: at('DEBUG', sink.info), info: at('INFO', sink.info), warn: at('WARN', sink.warn), error: at('ERROR', sink.error) };
}
