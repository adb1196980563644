import { describe, expect, it } from 'vitest';
import { emailFieldSchema } from './forms';

const messageOf = (value: string) => emailFieldSchema.safeParse(value).error?.issues[0]?.message;

describe('email field (product-spec §5 messages)', () => {
  it('requires a value', () => {
    expect(messageOf('')).toBe('This field is required!');
    expect(messageOf('   ')).toBe('This field is required!');
  });
  it('caps the length', () => {
    expect(messageOf(`${'a'.repeat(95)}@example.com`)).toBe('You have reached the maximum length');
  });
  it('rejects what is not an email', () => {
    expect(messageOf('not-an-email')).toBe('Please enter a valid email');
    expect(messageOf('a@b')).toBe('Please enter a valid email');
  });
  it('accepts and trims a real address', () => {
    expect(emailFieldSchema.parse('  ada@example.com ')).toBe('ada@example.com');
  });
});
