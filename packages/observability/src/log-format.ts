import type { DestinationStream } from 'pino';
import pretty from 'pino-pretty';

/** How a service writes its logs: one JSON object a line (machines), or lines a person reads. */
export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** Development (`npm start`, `npm run dev`) is read by a person; production and tests by machines. */
export function defaultLogFormat(nodeEnv: string | undefined): LogFormat {
  return nodeEnv === 'development' ? 'pretty' : 'json';
}

/**
 * Where pino writes: standard output as JSON (undefined: pino's own default), or through
 * pino-pretty, synchronously, one line per entry with the time of day and the fields after it.
 */
export function logDestination(format: LogFormat): DestinationStream | undefined {
  if (format === 'json') return undefined;
  return pretty({ translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname', singleLine: true, sync: true });
}
