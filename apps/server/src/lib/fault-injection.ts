import type { Config } from '../config/env';

/**
 * Test-only crash points (FAULT_INJECTION, NODE_ENV=test): the process dies at once, as on a power
 * cut, so the kill -9 tests can prove what recovery does. Nothing happens outside tests.
 */
export function crashPoint(config: Pick<Config, 'NODE_ENV' | 'FAULT_INJECTION'>, point: NonNullable<Config['FAULT_INJECTION']>): void {
  if (config.NODE_ENV === 'test' && config.FAULT_INJECTION === point) process.kill(process.pid, 'SIGKILL');
}
