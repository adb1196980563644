import { describe, expect, it } from 'vitest';
import { openSealed, seal } from './sealed-box';

const SECRET = 'a-test-secret-of-at-least-32-characters!';

describe('sealed box', () => {
  it('opens what it sealed, and the sealed text reads as noise', () => {
    const sealed = seal(SECRET, 'email-outbox', 'Your code is 123456.');
    expect(sealed).not.toContain('123456');
    expect(Buffer.from(sealed, 'base64url').toString('latin1')).not.toContain('123456');
    expect(openSealed(SECRET, 'email-outbox', sealed)).toBe('Your code is 123456.');
    expect(seal(SECRET, 'email-outbox', 'same')).not.toBe(seal(SECRET, 'email-outbox', 'same'));
  });

  it('refuses another secret, another purpose, an altered or truncated box', () => {
    const sealed = seal(SECRET, 'email-outbox', 'hello');
    expect(openSealed('another-secret-of-at-least-32-characters', 'email-outbox', sealed)).toBeUndefined();
    expect(openSealed(SECRET, 'other', sealed)).toBeUndefined();
    const bytes = Buffer.from(sealed, 'base64url');
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 1) ^ 1, bytes.length - 1);
    expect(openSealed(SECRET, 'email-outbox', bytes.toString('base64url'))).toBeUndefined();
    expect(openSealed(SECRET, 'email-outbox', 'abc')).toBeUndefined();
  });
});
