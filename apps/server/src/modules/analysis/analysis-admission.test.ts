import { describe, expect, it } from 'vitest';
import { clientKeyOf, refusalError } from './analysis-admission';

describe('analysis admission helpers (ADR 165)', () => {
  it('names a client to the analyzers by a digest of its address, never the address', () => {
    const key = clientKeyOf('203.0.113.7');
    // The analyzer takes keys of this form from x-roots-client (apps/analyzer/src/analyzer-app.ts).
    expect(key).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(key).not.toContain('203');
    expect(clientKeyOf('203.0.113.7')).toBe(key);
    expect(clientKeyOf('203.0.113.8')).not.toBe(key);
  });

  it('turns refusals into the JSON routes’ errors: 503 or 429 with retry-after, 415/413/422 for the photo', () => {
    expect(refusalError({ refused: 'queue', reason: 'full', retryAfterSeconds: 4 })).toMatchObject({
      statusCode: 503,
      code: 'SERVICE_UNAVAILABLE',
      retryAfterSeconds: 4,
    });
    expect(refusalError({ refused: 'queue', reason: 'share', retryAfterSeconds: 2 })).toMatchObject({
      statusCode: 429,
      code: 'RATE_LIMITED',
      retryAfterSeconds: 2,
    });
    const photo = (code: 'UNSUPPORTED_IMAGE_FORMAT' | 'IMAGE_TOO_LARGE' | 'CORRUPT_IMAGE') =>
      refusalError({ refused: 'photo', outcome: { ok: false, code } }).statusCode;
    expect([photo('UNSUPPORTED_IMAGE_FORMAT'), photo('IMAGE_TOO_LARGE'), photo('CORRUPT_IMAGE')]).toEqual([415, 413, 422]);
  });
});
