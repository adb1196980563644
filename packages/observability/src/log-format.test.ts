import { describe, expect, it } from 'vitest';
import { defaultLogFormat, logDestination } from './log-format';

describe('log format (issue 26: npm start readable for a person)', () => {
  it('is pretty in development and JSON in production and tests', () => {
    expect(defaultLogFormat('development')).toBe('pretty');
    expect(defaultLogFormat('production')).toBe('json');
    expect(defaultLogFormat('test')).toBe('json');
    expect(defaultLogFormat(undefined)).toBe('json');
  });

  it('writes JSON through pino itself, and pretty lines through a stream of their own', () => {
    expect(logDestination('json')).toBeUndefined();
    expect(typeof logDestination('pretty')?.write).toBe('function');
  });
});
