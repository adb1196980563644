import { describe, expect, it, vi } from 'vitest';
import { findNul, nulInRequest } from './text';

describe('findNul', () => {
  it('names the path of a string holding a NUL', () => {
    expect(findNul({ a: { b: ['ok', 'x\u0000y'] } })).toBe('a.b.1');
    expect(nulInRequest({ params: {}, query: {}, body: { email: 'a\u0000@b.co' } })).toBe(
      'Invalid body: email: must not contain a NUL character',
    );
  });

  it('leaves binary bodies alone: a photo full of zero bytes is not text', () => {
    const photo = Buffer.alloc(1024, 0);
    expect(findNul(photo)).toBeUndefined();
    expect(findNul(new Uint8Array(16))).toBeUndefined();
    expect(findNul(new ArrayBuffer(16))).toBeUndefined();
    expect(nulInRequest({ params: {}, query: {}, body: photo })).toBeUndefined();
  });

  it('never walks the bytes of a large buffer (issue 22: 8 MB froze the server)', () => {
    const photo = Buffer.alloc(8 * 1024 * 1024, 0);
    const entries = vi.spyOn(Object, 'entries');
    try {
      expect(nulInRequest({ params: {}, query: {}, body: photo })).toBeUndefined();
      expect(entries.mock.calls.some(([value]) => value === photo)).toBe(false);
    } finally {
      entries.mockRestore();
    }
  });
});
