import type { CardNetwork } from '@roots/contracts/gateway';
import { CARD_NETWORKS } from '@roots/contracts/gateway-constants';
import { CheckoutError } from '../errors/checkout-error';

/**
 * The collect-configuration catalogue of checkout-spec §5 and §8: each check throws a
 * {@link CheckoutError} with its own code. Hand-written (no zod) to keep the parent bundle small.
 */

/** Element types a collect container can create. Card types render in gateway secure frames. */
export const ELEMENT_TYPES = [
  'CARD_NUMBER',
  'CARDHOLDER_NAME',
  'CVV',
  'EXPIRATION_DATE',
  'EXPIRATION_MONTH',
  'EXPIRATION_YEAR',
  'PIN',
  'INPUT_FIELD',
  'CHECKBOX',
  'RADIO',
  'DROPDOWN',
  'FILE_INPUT',
] as const;
export type ElementType = (typeof ELEMENT_TYPES)[number];

/** Types whose `format` option means something (others drop it with a warning). */
export const FORMAT_TYPES: readonly ElementType[] = ['CARD_NUMBER', 'EXPIRATION_DATE', 'EXPIRATION_YEAR', 'INPUT_FIELD'];

export const VALIDATION_RULE_TYPES = ['REGEX_MATCH_RULE', 'LENGTH_MATCH_RULE', 'ELEMENT_VALUE_MATCH_RULE'] as const;
export type ValidationRuleType = (typeof VALIDATION_RULE_TYPES)[number];

export type ValidationRule =
  | { type: 'REGEX_MATCH_RULE'; params: { regex: string; error?: string } }
  | { type: 'LENGTH_MATCH_RULE'; params: { min?: number; max?: number; error?: string } }
  | { type: 'ELEMENT_VALUE_MATCH_RULE'; params: { element: string; error?: string } };

/** Collect element options (checkout-spec §3). */
export type CollectElementOptions = {
  type: ElementType;
  /** Unique within a container; defaults to `table.column` or the type. */
  name?: string;
  table?: string;
  column?: string;
  skyflowID?: string;
  label?: string;
  placeholder?: string;
  format?: string;
  required?: boolean;
  /** Default true. */
  enableCardIcon?: boolean;
  /** CARD_NUMBER: networks refused with 'Discover cards are not accepted.' (the network's name). Default none. */
  rejectedNetworks?: CardNetwork[];
  validations?: ValidationRule[];
  mask?: [string, ...unknown[]];
  replacePattern?: string[];
  allowedFileType?: string[];
  value?: string;
  options?: Array<{ value: string; text: string }>;
  translation?: Record<string, string>;
  styles?: Record<string, unknown>;
  labelStyles?: Record<string, unknown>;
  errorTextStyles?: Record<string, unknown>;
  /** @deprecated use label. */
  altText?: string;
};

export type CollectRecord = { table: string; fields: Record<string, unknown>; skyflowID?: string };
/** Collect options (checkout-spec §3). `tokens` defaults to true. */
export type CollectOptions = {
  tokens?: boolean;
  additionalFields?: { records: CollectRecord[] };
  upsert?: Array<{ table: string; column: string }>;
};

export type Warn = (message: string) => void;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isNonEmptyString = (value: unknown): value is string => typeof value === 'string' && value.trim().length > 0;

function checkString(
  value: unknown,
  where: string,
  codes: { missing: CheckoutErrorCodeLike; invalid: CheckoutErrorCodeLike; empty: CheckoutErrorCodeLike },
): void {
  if (value === undefined) throw new CheckoutError(codes.missing, `${where} is required`);
  if (typeof value !== 'string') throw new CheckoutError(codes.invalid, `${where} must be a string`);
  if (value.trim() === '') throw new CheckoutError(codes.empty, `${where} must not be empty`);
}
type CheckoutErrorCodeLike = ConstructorParameters<typeof CheckoutError>[0];

/** Validates collect options: tokens, additionalFields.records and upsert. */
export function validateCollectOptions(options: unknown): CollectOptions {
  if (options === undefined) return { tokens: true };
  if (!isObject(options)) throw new CheckoutError('COLLECT_OPERATION_FAILED', 'collect options must be an object');
  if (options.tokens !== undefined && typeof options.tokens !== 'boolean')
    throw new CheckoutError('INVALID_TOKENS', 'tokens must be a boolean');
  if (options.additionalFields !== undefined) {
    const additional = options.additionalFields;
    if (!isObject(additional) || additional.records === undefined)
      throw new CheckoutError('MISSING_RECORDS', 'additionalFields.records is required');
    const records = additional.records;
    if (!Array.isArray(records)) throw new CheckoutError('INVALID_RECORDS', 'additionalFields.records must be an array');
    if (records.length === 0) throw new CheckoutError('EMPTY_RECORDS', 'additionalFields.records must not be empty');
    records.forEach((record: unknown, index) => {
      const where = `records[${index}]`;
      if (!isObject(record)) throw new CheckoutError('INVALID_RECORDS', `${where} must be an object`);
      checkString(record.table, `${where}.table`, { missing: 'MISSING_TABLE', invalid: 'INVALID_TABLE', empty: 'EMPTY_TABLE' });
      if (record.fields === undefined) throw new CheckoutError('MISSING_FIELDS', `${where}.fields is required`);
      if (!isObject(record.fields)) throw new CheckoutError('INVALID_FIELDS', `${where}.fields must be an object`);
      if (Object.keys(record.fields).length === 0) throw new CheckoutError('EMPTY_FIELDS', `${where}.fields must not be empty`);
      if (record.skyflowID !== undefined) {
        if (typeof record.skyflowID !== 'string') throw new CheckoutError('INVALID_SKYFLOW_ID', `${where}.skyflowID must be a string`);
        if (record.skyflowID.trim() === '') throw new CheckoutError('EMPTY_SKYFLOW_ID', `${where}.skyflowID must not be empty`);
      }
    });
  }
  if (options.upsert !== undefined) {
    const upsert = options.upsert;
    if (!Array.isArray(upsert)) throw new CheckoutError('INVALID_UPSERT', 'upsert must be an array');
    if (upsert.length === 0) throw new CheckoutError('EMPTY_UPSERT', 'upsert must not be empty');
    upsert.forEach((item: unknown, index) => {
      if (!isObject(item)) throw new CheckoutError('INVALID_UPSERT', `upsert[${index}] must be an object`);
      checkString(item.table, `upsert[${index}].table`, { missing: 'MISSING_TABLE', invalid: 'INVALID_TABLE', empty: 'EMPTY_TABLE' });
      checkString(item.column, `upsert[${index}].column`, { missing: 'MISSING_COLUMN', invalid: 'INVALID_COLUMN', empty: 'EMPTY_COLUMN' });
    });
  }
  return { tokens: true, ...(options as CollectOptions) };
}

/** Validates validation rules; `elementNames` are the names an element-match rule may point at. */
export function validateValidations(validations: unknown, elementNames: readonly string[]): ValidationRule[] {
  if (!Array.isArray(validations)) throw new CheckoutError('INVALID_VALIDATIONS', 'validations must be an array');
  validations.forEach((rule: unknown, index) => {
    const where = `validations[${index}]`;
    if (!isObject(rule) || !VALIDATION_RULE_TYPES.includes(rule.type as ValidationRuleType))
      throw new CheckoutError('INVALID_VALIDATION_RULE_TYPE', `${where}.type must be one of ${VALIDATION_RULE_TYPES.join(', ')}`);
    if (!isObject(rule.params)) throw new CheckoutError('INVALID_VALIDATION_RULE_PARAMS', `${where}.params must be an object`);
    const params = rule.params;
    switch (rule.type as ValidationRuleType) {
      case 'REGEX_MATCH_RULE':
        if (typeof params.regex !== 'string') throw new CheckoutError('INVALID_REGEX', `${where}.params.regex must be a string`);
        try {
          new RegExp(params.regex);
        } catch (cause) {
          throw new CheckoutError('INVALID_REGEX', `${where}.params.regex does not compile`, { cause });
        }
        break;
      case 'LENGTH_MATCH_RULE':
        if (params.min === undefined && params.max === undefined)
          throw new CheckoutError('MISSING_MIN_MAX', `${where}.params needs min or max`);
        break;
      case 'ELEMENT_VALUE_MATCH_RULE':
        if (params.element === undefined)
          throw new CheckoutError('MISSING_ELEMENT_IN_ELEMENT_MATCH', `${where}.params.element is required`);
        if (!isNonEmptyString(params.element) || !elementNames.includes(params.element))
          throw new CheckoutError('INVALID_ELEMENT_IN_ELEMENT_MATCH', `${where}.params.element must name another element`);
        break;
    }
  });
  return validations as ValidationRule[];
}

/**
 * Validates element creation options (checkout-spec §5 "Element creation").
 * @returns the options, with `format` dropped (and a warning) where the type does not support it.
 */
export function validateElementOptions(options: unknown, context: { elementNames: readonly string[]; warn: Warn }): CollectElementOptions {
  if (!isObject(options)) throw new CheckoutError('COLLECT_CREATION_FAILED', 'element options must be an object');
  checkString(options.type, 'type', { missing: 'MISSING_ELEMENT_TYPE', invalid: 'INVALID_ELEMENT_TYPE', empty: 'EMPTY_ELEMENT_TYPE' });
  if (!ELEMENT_TYPES.includes(options.type as ElementType))
    throw new CheckoutError('INVALID_ELEMENT_TYPE', `type must be one of ${ELEMENT_TYPES.join(', ')}`);
  const type = options.type as ElementType;
  if (options.skyflowID !== undefined && typeof options.skyflowID !== 'string')
    throw new CheckoutError('INVALID_SKYFLOW_ID', 'skyflowID must be a string');
  if (options.table !== undefined)
    checkString(options.table, 'table', { missing: 'MISSING_TABLE', invalid: 'INVALID_TABLE', empty: 'EMPTY_TABLE' });
  if (options.column !== undefined)
    checkString(options.column, 'column', { missing: 'MISSING_COLUMN', invalid: 'INVALID_COLUMN', empty: 'EMPTY_COLUMN' });
  if (options.required !== undefined && typeof options.required !== 'boolean')
    throw new CheckoutError('INVALID_REQUIRED', 'required must be a boolean');
  if (options.enableCardIcon !== undefined && typeof options.enableCardIcon !== 'boolean')
    throw new CheckoutError('INVALID_ENABLE_CARD_ICON', 'enableCardIcon must be a boolean');
  if (
    options.rejectedNetworks !== undefined &&
    (!Array.isArray(options.rejectedNetworks) ||
      !options.rejectedNetworks.every((network) => CARD_NETWORKS.includes(network as CardNetwork)))
  )
    throw new CheckoutError('COLLECT_CREATION_FAILED', `rejectedNetworks must list card networks (${CARD_NETWORKS.join(', ')})`);
  if (options.validations !== undefined) validateValidations(options.validations, context.elementNames);
  if ((type === 'RADIO' || type === 'CHECKBOX') && !isNonEmptyString(options.value))
    throw new CheckoutError('MISSING_VALUE', `${type} needs a value`);
  if (type === 'DROPDOWN' && (!Array.isArray(options.options) || options.options.length === 0))
    throw new CheckoutError('INVALID_DROPDOWN_OPTIONS', 'DROPDOWN needs a non-empty options array');
  if (options.mask !== undefined) {
    const mask = options.mask;
    if (!Array.isArray(mask) || typeof mask[0] !== 'string' || (mask[1] !== undefined && !isObject(mask[1])) || mask.length > 3)
      throw new CheckoutError('INVALID_MASK', 'mask must be [string, object?]');
  }
  if (options.replacePattern !== undefined) {
    if (!Array.isArray(options.replacePattern) || !options.replacePattern.every((item) => typeof item === 'string'))
      throw new CheckoutError('INVALID_REPLACE_PATTERN', 'replacePattern must be an array of strings');
  }
  if (options.translation !== undefined && !isObject(options.translation))
    throw new CheckoutError('INVALID_TRANSLATION', 'translation must be an object');
  const result = { ...options } as CollectElementOptions;
  if (options.format !== undefined) {
    if (typeof options.format !== 'string') throw new CheckoutError('INVALID_FORMAT', 'format must be a string');
    if (!FORMAT_TYPES.includes(type)) {
      context.warn(`format is not supported for ${type}; it is ignored`);
      delete result.format;
    }
  }
  const name = elementName(result);
  if (context.elementNames.includes(name))
    throw new CheckoutError('NON_UNIQUE_ELEMENT_NAME', `an element named ${name} already exists in this container`);
  return result;
}

/** The element's name: explicit, else `table.column`, else its type. */
export function elementName(options: Pick<CollectElementOptions, 'name' | 'table' | 'column' | 'type'>): string {
  return options.name ?? (options.table && options.column ? `${options.table}.${options.column}` : options.type);
}

/** Name and type never change on update. */
export function validateElementUpdate(current: CollectElementOptions, update: Partial<CollectElementOptions>): void {
  if ((update.type !== undefined && update.type !== current.type) || (update.name !== undefined && update.name !== current.name))
    throw new CheckoutError('CANNOT_CHANGE_ELEMENT_NAME_OR_TYPE', 'element name and type cannot change on update');
}

/** Composable container options: a layout of non-negative row sizes summing to the element count. */
export function validateComposableOptions(options: unknown, elementCount?: number): { layout: number[] } {
  if (!isObject(options)) throw new CheckoutError('INVALID_COMPOSABLE_OPTIONS', 'composable container options must be an object');
  if (options.layout === undefined) throw new CheckoutError('MISSING_LAYOUT', 'layout is required');
  const layout = options.layout;
  if (!Array.isArray(layout)) throw new CheckoutError('INVALID_LAYOUT', 'layout must be an array of numbers');
  if (layout.length === 0) throw new CheckoutError('EMPTY_LAYOUT', 'layout must not be empty');
  if (!layout.every((value) => typeof value === 'number' && Number.isInteger(value)))
    throw new CheckoutError('INVALID_LAYOUT', 'layout must be an array of numbers');
  if (layout.some((value: number) => value < 0)) throw new CheckoutError('NEGATIVE_LAYOUT_VALUE', 'layout values must not be negative');
  if (elementCount !== undefined) {
    const sum = (layout as number[]).reduce((total, value) => total + value, 0);
    if (sum !== elementCount)
      throw new CheckoutError('LAYOUT_ELEMENT_COUNT_MISMATCH', `layout sums to ${sum} but the container has ${elementCount} elements`);
  }
  return { layout: layout as number[] };
}

export const CONTAINER_TYPES = ['COLLECT', 'COMPOSABLE'] as const;
export type ContainerType = (typeof CONTAINER_TYPES)[number];
export function validateContainerType(type: unknown): ContainerType {
  if (!CONTAINER_TYPES.includes(type as ContainerType))
    throw new CheckoutError('INVALID_CONTAINER_TYPE', `container type must be one of ${CONTAINER_TYPES.join(', ')}`);
  return type as ContainerType;
}

/** An event listener needs a known event name and a function. */
export function validateEventListener<Name extends string>(name: unknown, handler: unknown, known: readonly Name[]): asserts name is Name {
  if (typeof name !== 'string' || !known.includes(name as Name))
    throw new CheckoutError('INVALID_EVENT_LISTENER', `event must be one of ${known.join(', ')}`);
  if (typeof handler !== 'function') throw new CheckoutError('INVALID_EVENT_HANDLER', 'event handler must be a function');
}

/** A mount target: an existing selector or an HTML element attached to the page. */
export function resolveMountTarget(target: unknown, document: Document): HTMLElement {
  if (target === undefined || target === null || target === '')
    throw new CheckoutError('EMPTY_ELEMENT_IN_MOUNT', 'mount needs a selector or an element');
  if (typeof target === 'string') {
    let found: Element | null;
    try {
      found = document.querySelector(target);
    } catch (cause) {
      throw new CheckoutError('INVALID_ELEMENT_SELECTOR', `${target} is not a valid selector`, { cause });
    }
    if (!found) throw new CheckoutError('INVALID_ELEMENT_SELECTOR', `no element matches ${target}`);
    return found as HTMLElement;
  }
  const view = document.defaultView;
  if (!view || !(target instanceof view.HTMLElement))
    throw new CheckoutError('INVALID_ELEMENT_SELECTOR', 'mount target must be a selector or an HTML element');
  // A frame inside a detached element never loads: its parent must be in the page.
  if (!target.isConnected) throw new CheckoutError('PARENT_ELEMENT_MISSING', 'the mount target is not attached to the page');
  return target;
}
