import { describe, expect, it } from 'vitest';
import { hasBearer, metricsAccess } from './http-metrics';

describe('metrics access', () => {
  it('a token guards the scrape; without one it is open outside production and absent in production', () => {
    expect(metricsAccess('t'.repeat(32), 'production')).toEqual({ token: 't'.repeat(32) });
    expect(metricsAccess(undefined, 'production')).toBe('off');
    expect(metricsAccess(undefined, 'development')).toBe('open');
    expect(metricsAccess(undefined, 'test')).toBe('open');
  });

  it('reads the bearer token, and nothing else', () => {
    expect(hasBearer('Bearer secret-token', 'secret-token')).toBe(true);
    expect(hasBearer('Bearer secret-tokenX', 'secret-token')).toBe(false);
    expect(hasBearer('secret-token', 'secret-token')).toBe(false);
    expect(hasBearer(undefined, 'secret-token')).toBe(false);
  });
});
