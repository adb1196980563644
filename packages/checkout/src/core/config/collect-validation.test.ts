// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { CheckoutError, type CheckoutErrorCode } from '../errors/checkout-error';
import {
  resolveMountTarget,
  validateCollectOptions,
  validateComposableOptions,
  validateContainerType,
  validateElementOptions,
  validateElementUpdate,
  validateEventListener,
  validateValidations,
} from './collect-validation';

function codeOf(run: () => unknown): CheckoutErrorCode | undefined {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(CheckoutError);
    return (error as CheckoutError).code;
  }
  return undefined;
}

const element =
  (options: Record<string, unknown>, names: string[] = []) =>
  () =>
    validateElementOptions(options, { elementNames: names, warn: () => {} });

describe('collect options (checkout-spec §5)', () => {
  const record = { table: 'cards', fields: { name: 'x' } };
  it.each([
    [{ tokens: 'yes' }, 'INVALID_TOKENS'],
    [{ additionalFields: {} }, 'MISSING_RECORDS'],
    [{ additionalFields: { records: 'x' } }, 'INVALID_RECORDS'],
    [{ additionalFields: { records: [] } }, 'EMPTY_RECORDS'],
    [{ additionalFields: { records: ['x'] } }, 'INVALID_RECORDS'],
    [{ additionalFields: { records: [{ fields: { a: 1 } }] } }, 'MISSING_TABLE'],
    [{ additionalFields: { records: [{ table: 3, fields: { a: 1 } }] } }, 'INVALID_TABLE'],
    [{ additionalFields: { records: [{ table: ' ', fields: { a: 1 } }] } }, 'EMPTY_TABLE'],
    [{ additionalFields: { records: [{ table: 't' }] } }, 'MISSING_FIELDS'],
    [{ additionalFields: { records: [{ table: 't', fields: [] }] } }, 'INVALID_FIELDS'],
    [{ additionalFields: { records: [{ table: 't', fields: {} }] } }, 'EMPTY_FIELDS'],
    [{ additionalFields: { records: [{ ...record, skyflowID: 5 }] } }, 'INVALID_SKYFLOW_ID'],
    [{ additionalFields: { records: [{ ...record, skyflowID: '' }] } }, 'EMPTY_SKYFLOW_ID'],
    [{ upsert: {} }, 'INVALID_UPSERT'],
    [{ upsert: [] }, 'EMPTY_UPSERT'],
    [{ upsert: [3] }, 'INVALID_UPSERT'],
    [{ upsert: [{ column: 'c' }] }, 'MISSING_TABLE'],
    [{ upsert: [{ table: 't' }] }, 'MISSING_COLUMN'],
    [{ upsert: [{ table: 't', column: 1 }] }, 'INVALID_COLUMN'],
    [{ upsert: [{ table: 't', column: '' }] }, 'EMPTY_COLUMN'],
    ['nope', 'COLLECT_OPERATION_FAILED'],
  ])('%j → %s', (options, code) => {
    expect(codeOf(() => validateCollectOptions(options))).toBe(code);
  });

  it('accepts a full valid set and defaults tokens to true', () => {
    expect(
      validateCollectOptions({ additionalFields: { records: [{ ...record, skyflowID: 'id-1' }] }, upsert: [{ table: 't', column: 'c' }] })
        .tokens,
    ).toBe(true);
    expect(validateCollectOptions(undefined)).toEqual({ tokens: true });
  });
});

describe('element creation (checkout-spec §5)', () => {
  it.each([
    [{}, 'MISSING_ELEMENT_TYPE'],
    [{ type: 4 }, 'INVALID_ELEMENT_TYPE'],
    [{ type: '' }, 'EMPTY_ELEMENT_TYPE'],
    [{ type: 'IBAN' }, 'INVALID_ELEMENT_TYPE'],
    [{ type: 'CVV', skyflowID: 1 }, 'INVALID_SKYFLOW_ID'],
    [{ type: 'CVV', table: '' }, 'EMPTY_TABLE'],
    [{ type: 'CVV', table: 1 }, 'INVALID_TABLE'],
    [{ type: 'CVV', column: '' }, 'EMPTY_COLUMN'],
    [{ type: 'CVV', column: 2 }, 'INVALID_COLUMN'],
    [{ type: 'CVV', required: 'yes' }, 'INVALID_REQUIRED'],
    [{ type: 'CARD_NUMBER', enableCardIcon: 1 }, 'INVALID_ENABLE_CARD_ICON'],
    [{ type: 'CVV', validations: {} }, 'INVALID_VALIDATIONS'],
    [{ type: 'RADIO' }, 'MISSING_VALUE'],
    [{ type: 'CHECKBOX', value: '' }, 'MISSING_VALUE'],
    [{ type: 'DROPDOWN', options: [] }, 'INVALID_DROPDOWN_OPTIONS'],
    [{ type: 'INPUT_FIELD', mask: [1] }, 'INVALID_MASK'],
    [{ type: 'INPUT_FIELD', mask: ['+1 (XXX)', 'x'] }, 'INVALID_MASK'],
    [{ type: 'INPUT_FIELD', replacePattern: [/x/] }, 'INVALID_REPLACE_PATTERN'],
    [{ type: 'INPUT_FIELD', format: 3 }, 'INVALID_FORMAT'],
    [{ type: 'INPUT_FIELD', translation: 'x' }, 'INVALID_TRANSLATION'],
    ['x', 'COLLECT_CREATION_FAILED'],
  ])('%j → %s', (options, code) => {
    expect(codeOf(element(options as Record<string, unknown>))).toBe(code);
  });

  it('rejects a second element with the same name', () => {
    expect(codeOf(element({ type: 'CVV', table: 'cards', column: 'cvv' }, ['cards.cvv']))).toBe('NON_UNIQUE_ELEMENT_NAME');
  });

  it('drops format with a warning for types without formats', () => {
    const warn = vi.fn();
    const options = validateElementOptions({ type: 'CVV', format: 'X' }, { elementNames: [], warn });
    expect(options.format).toBeUndefined();
    expect(warn).toHaveBeenCalledOnce();
    expect(validateElementOptions({ type: 'CARD_NUMBER', format: 'XXXX-XXXX-XXXX-XXXX' }, { elementNames: [], warn }).format).toBe(
      'XXXX-XXXX-XXXX-XXXX',
    );
  });

  it('accepts radio, checkbox, dropdown, mask and replacePattern when well formed', () => {
    expect(codeOf(element({ type: 'RADIO', value: 'a' }))).toBeUndefined();
    expect(codeOf(element({ type: 'DROPDOWN', options: [{ value: 'a', text: 'A' }] }))).toBeUndefined();
    expect(codeOf(element({ type: 'INPUT_FIELD', mask: ['+1 (XXX)', { X: '[0-9]' }], replacePattern: ['\\s', ''] }))).toBeUndefined();
  });

  it('never lets name or type change on update', () => {
    expect(codeOf(() => validateElementUpdate({ type: 'CVV', name: 'a' }, { type: 'PIN' }))).toBe('CANNOT_CHANGE_ELEMENT_NAME_OR_TYPE');
    expect(codeOf(() => validateElementUpdate({ type: 'CVV', name: 'a' }, { name: 'b' }))).toBe('CANNOT_CHANGE_ELEMENT_NAME_OR_TYPE');
    expect(codeOf(() => validateElementUpdate({ type: 'CVV', name: 'a' }, { placeholder: 'x' }))).toBeUndefined();
  });
});

describe('validation rules', () => {
  it.each([
    [[{ type: 'FOO', params: {} }], 'INVALID_VALIDATION_RULE_TYPE'],
    [[{ type: 'REGEX_MATCH_RULE' }], 'INVALID_VALIDATION_RULE_PARAMS'],
    [[{ type: 'REGEX_MATCH_RULE', params: {} }], 'INVALID_REGEX'],
    [[{ type: 'REGEX_MATCH_RULE', params: { regex: '([' } }], 'INVALID_REGEX'],
    [[{ type: 'LENGTH_MATCH_RULE', params: {} }], 'MISSING_MIN_MAX'],
    [[{ type: 'ELEMENT_VALUE_MATCH_RULE', params: {} }], 'MISSING_ELEMENT_IN_ELEMENT_MATCH'],
    [[{ type: 'ELEMENT_VALUE_MATCH_RULE', params: { element: 'ghost' } }], 'INVALID_ELEMENT_IN_ELEMENT_MATCH'],
  ])('%j → %s', (rules, code) => {
    expect(codeOf(() => validateValidations(rules, ['pin']))).toBe(code);
  });
  it('accepts valid rules', () => {
    const rules = [
      { type: 'REGEX_MATCH_RULE', params: { regex: '^\\d+$' } },
      { type: 'LENGTH_MATCH_RULE', params: { min: 4 } },
      { type: 'ELEMENT_VALUE_MATCH_RULE', params: { element: 'pin' } },
    ];
    expect(validateValidations(rules, ['pin'])).toHaveLength(3);
  });
});

describe('containers, listeners and mounts', () => {
  it.each([
    ['x', undefined, 'INVALID_COMPOSABLE_OPTIONS'],
    [{}, undefined, 'MISSING_LAYOUT'],
    [{ layout: 'x' }, undefined, 'INVALID_LAYOUT'],
    [{ layout: ['1'] }, undefined, 'INVALID_LAYOUT'],
    [{ layout: [] }, undefined, 'EMPTY_LAYOUT'],
    [{ layout: [1, -1] }, undefined, 'NEGATIVE_LAYOUT_VALUE'],
    [{ layout: [1, 2] }, 4, 'LAYOUT_ELEMENT_COUNT_MISMATCH'],
  ])('composable %j (%s elements) → %s', (options, count, code) => {
    expect(codeOf(() => validateComposableOptions(options, count))).toBe(code);
  });
  it('accepts a layout summing to the element count', () => {
    expect(validateComposableOptions({ layout: [1, 2] }, 3).layout).toEqual([1, 2]);
  });
  it('checks container types', () => {
    expect(codeOf(() => validateContainerType('GRID'))).toBe('INVALID_CONTAINER_TYPE');
    expect(validateContainerType('COMPOSABLE')).toBe('COMPOSABLE');
  });
  it('checks event listeners', () => {
    expect(codeOf(() => validateEventListener('CLICK', () => {}, ['CHANGE']))).toBe('INVALID_EVENT_LISTENER');
    expect(codeOf(() => validateEventListener('CHANGE', 'nope', ['CHANGE']))).toBe('INVALID_EVENT_HANDLER');
    expect(codeOf(() => validateEventListener('CHANGE', () => {}, ['CHANGE']))).toBeUndefined();
  });
  it('resolves mount targets', () => {
    document.body.innerHTML = '<div id="here"></div>';
    expect(resolveMountTarget('#here', document).id).toBe('here');
    expect(resolveMountTarget(document.getElementById('here'), document).id).toBe('here');
    expect(codeOf(() => resolveMountTarget('', document))).toBe('EMPTY_ELEMENT_IN_MOUNT');
    expect(codeOf(() => resolveMountTarget('#missing', document))).toBe('INVALID_ELEMENT_SELECTOR');
    expect(codeOf(() => resolveMountTarget('##', document))).toBe('INVALID_ELEMENT_SELECTOR');
    expect(codeOf(() => resolveMountTarget(42, document))).toBe('INVALID_ELEMENT_SELECTOR');
  });
});
