import { describe, expect, it } from 'vitest';
import { nextRefreshDelayMs } from './auth-session';

describe('session refresh timing (product-spec §4)', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  it('refreshes 5 minutes (plus the 30 s skew) before expiry', () => {
    expect(nextRefreshDelayMs(new Date(now.getTime() + 3_600_000), now, 0)).toBe(3_600_000 - 300_000 - 30_000);
    expect(nextRefreshDelayMs(new Date(now.getTime() + 60_000), now, 0)).toBe(0);
  });
  it('backs off from 30 s, doubling up to 16 minutes', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 8].map((failures) => nextRefreshDelayMs(now, now, failures));
    expect(delays).toEqual([30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 960_000, 960_000]);
  });
});
