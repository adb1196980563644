import { describe, expect, it } from 'vitest';
import type { FrameFieldOptions, InputFrameType } from '@roots/contracts/frame-protocol';
import { applyMask, applyReplacePattern, checkInput, failingRule, isFileTypeAllowed, maxLengthOf } from './input-rules';

describe('input masks and replace patterns', () => {
  it.each([
    ['5551234567', '+1 (XXX) XXX-XXXX', '+1 (555) 123-4567'],
    ['555', '+1 (XXX) XXX-XXXX', '+1 (555'],
    ['ab12cd34', 'XX-XX', '12-34'],
    ['', 'XX-XX', ''],
  ])('%s with %s → %s', (value, pattern, masked) => {
    expect(applyMask(value, { pattern })).toBe(masked);
  });
  it('takes character classes from the translation', () => {
    expect(applyMask('ab12', { pattern: 'AA-99', translation: { A: '[a-z]', 9: '[0-9]' } })).toBe('ab-12');
  });
  it('replaces every match; a pattern that does not compile changes nothing', () => {
    expect(applyReplacePattern('12 34 56', { pattern: '\\s', replacement: '' })).toBe('123456');
    expect(applyReplacePattern('abc', { pattern: '([', replacement: '' })).toBe('abc');
  });
});

describe('input rules (checkout-spec §3 "Validation rule")', () => {
  const valueOf = (name: string) => (name === 'pin' ? '1234' : undefined);
  it('regex, length and element match; the first failing rule wins', () => {
    const rules = [
      { type: 'REGEX_MATCH_RULE' as const, params: { regex: '^\\d+$', error: 'Digits only' } },
      { type: 'LENGTH_MATCH_RULE' as const, params: { min: 4, max: 6 } },
      { type: 'ELEMENT_VALUE_MATCH_RULE' as const, params: { element: 'pin', error: 'PINs differ' } },
    ];
    expect(failingRule('12a', rules, valueOf)?.params.error).toBe('Digits only');
    expect(failingRule('123', rules, valueOf)?.type).toBe('LENGTH_MATCH_RULE');
    expect(failingRule('12345', rules, valueOf)?.params.error).toBe('PINs differ');
    expect(failingRule('1234', rules, valueOf)).toBeUndefined();
    expect(maxLengthOf(rules)).toBe(6);
  });
  it('file types by extension, MIME type or family; none listed allows any', () => {
    expect(isFileTypeAllowed({ name: 'id.PDF', type: 'application/pdf' }, ['.pdf'])).toBe(true);
    expect(isFileTypeAllowed({ name: 'id.png', type: 'image/png' }, ['image/*'])).toBe(true);
    expect(isFileTypeAllowed({ name: 'id.png', type: 'image/png' }, ['.pdf', 'application/pdf'])).toBe(false);
    expect(isFileTypeAllowed({ name: 'x', type: '' }, [])).toBe(true);
  });
  it.each([
    ['pin', '', { required: true }, 'This field is required!', false],
    ['pin', '123', {}, 'Fill in the field', false],
    ['pin', '1234', {}, '', true],
    ['input-field', '', {}, '', true],
    [
      'input-field',
      'abc',
      { validations: [{ type: 'REGEX_MATCH_RULE' as const, params: { regex: '^\\d+$', error: 'Digits only' } }] },
      'Digits only',
      false,
    ],
    [
      'input-field',
      'abcdef',
      { validations: [{ type: 'LENGTH_MATCH_RULE' as const, params: { max: 6 } }] },
      'You have reached the maximum length',
      true,
    ],
  ] as Array<[InputFrameType, string, FrameFieldOptions, string, boolean]>)('%s "%s" → "%s"', (type, value, options, message, valid) => {
    const check = checkInput(type, value, options, () => undefined);
    expect(check.message).toBe(message);
    expect(check.valid).toBe(valid);
  });
  it('a file of a type not allowed is invalid', () => {
    expect(
      checkInput('file-input', 'x.png', { allowedFileTypes: ['.pdf'], file: { name: 'x.png', type: 'image/png' } }, () => undefined),
    ).toMatchObject({
      valid: false,
      message: 'Fill in the field',
    });
  });
});
