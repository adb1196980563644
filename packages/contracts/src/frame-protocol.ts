/**
 * The postMessage protocol between the merchant page (packages/checkout) and the gateway-origin
 * secure-field frames (packages/secure-fields), in one place for both sides (ADR 041, ADR 044):
 * message shapes, and the checks every received message passes — the sender's origin, the
 * sender's window, then the shape. Hand-written checks, no zod: both bundles are size-budgeted.
 *
 * @example
 * // parent
 * iframe.contentWindow.postMessage(parentMessage({ type: 'validate' }), gatewayOrigin);
 * const message = acceptFrameMessage(event, { origin: gatewayOrigin, sources: [iframe.contentWindow] });
 * // frame
 * const message = acceptParentMessage(event, { origin: parentOrigin, parent: window.parent });
 */

import { CARD_NETWORKS } from './gateway-constants';

/** Every message carries this tag so foreign messages are ignored cheaply. */
export const FRAME_MESSAGE_TAG = 'roots-secure-fields';
/** Protocol version; bumped on any incompatible change. */
export const FRAME_PROTOCOL_VERSION = 1;

/** Card frames: the card form's fields. */
export const CARD_FRAME_TYPES = ['card-number', 'cardholder-name', 'cvv', 'expiry-date', 'expiry-month', 'expiry-year'] as const;
export type CardFrameType = (typeof CARD_FRAME_TYPES)[number];
/** The other collect elements of checkout-spec §3/§5 (PIN, input, checkbox, radio, dropdown, file). */
export const INPUT_FRAME_TYPES = ['pin', 'input-field', 'checkbox', 'radio', 'dropdown', 'file-input'] as const;
export type InputFrameType = (typeof INPUT_FRAME_TYPES)[number];
/** The secure-field frame types: one html + js each, served by the gateway. */
export const FRAME_FIELD_TYPES = [...CARD_FRAME_TYPES, ...INPUT_FRAME_TYPES] as const;
export type FrameFieldType = (typeof FRAME_FIELD_TYPES)[number];

export const ELEMENT_EVENTS = ['READY', 'CHANGE', 'FOCUS', 'BLUR', 'SUBMIT'] as const;
export type ElementEvent = (typeof ELEMENT_EVENTS)[number];

/** Masked state of one secure field (checkout-spec §3 "Element state"). Never a full card number. */
export type ElementState = {
  isEmpty: boolean;
  isComplete: boolean;
  isValid: boolean;
  isFocused: boolean;
  /** Masked card number, cardholder name; empty for CVV and expiry. */
  value: string;
  required: boolean;
  /** Detected card network (card number only). */
  network?: string;
  /** Validation message shown under the field, empty when valid. */
  error?: string;
};

/** A record the vault stored for the collect (checkout-spec §3 "Collect options"): its id and, with `tokens`, a token per field. */
export type CollectedRecord = { table: string; skyflowID: string; fields?: Record<string, string> };
/** A record to store: an element value's destination (`table`, `column`), or extra fields of the integrator. */
export type CollectRecordInput = { table: string; fields: Record<string, string>; skyflowID?: string };
/** One element of the collecting container, as the collector frame needs it. */
export type CollectElementRef = { frameId: string; field: FrameFieldType; table?: string; column?: string; skyflowID?: string };
/** What a collect answers: the card (when the container holds a card number) and the stored records. */
export type CollectResult = { card?: CollectSuccess; records: CollectedRecord[] };

/** What a collect answers about the card: the vault token and what may be shown about it. */
export type CollectSuccess = { token: string; network: string; bin: string; last4: string; expiresAt: string };

/** CSS properties the parent may set inside a frame; values are checked too. */
export const FRAME_STYLE_PROPERTIES = [
  'color',
  'fontSize',
  'fontFamily',
  'fontWeight',
  'letterSpacing',
  'backgroundColor',
  'padding',
  'border',
  'borderRadius',
] as const;

/** Field options the parent sends with `init`. */
export type FrameFieldOptions = {
  placeholder?: string;
  label?: string;
  required?: boolean;
  enableCardIcon?: boolean;
  /** Card number: `XXXX-XXXX-XXXX-XXXX` for hyphens; expiry: MM/YY, YYYY/MM, YY/MM, MM/YYYY; year: YY or YYYY. */
  format?: string;
  styles?: Record<string, string>;
  /** Styles of the field's label inside the frame (same properties and checks as `styles`). */
  labelStyles?: Record<string, string>;
  /** Styles of the error line under the field (same properties and checks as `styles`). */
  errorTextStyles?: Record<string, string>;
  /** Card networks the form rejects ('Discover cards are not accepted.'). */
  rejectedNetworks?: Array<(typeof CARD_NETWORKS)[number]>;
  /** The element's name: element-match rules of its siblings name it. */
  name?: string;
  /** Validation rules of the element (checkout-spec §3 "Validation rule"). */
  validations?: FrameValidationRule[];
  /** Input mask: `X`-style placeholders, each key of `translation` a character class (default `X` = a digit). */
  mask?: { pattern: string; translation?: Record<string, string> };
  /** A pattern (RegExp source, global) replaced in the typed value, before the mask. */
  replacePattern?: { pattern: string; replacement: string };
  /** Checkbox and radio: the value when checked. */
  value?: string;
  /** Dropdown choices. */
  choices?: Array<{ value: string; text: string }>;
  /** File input: accepted file extensions or MIME types (e.g. `.pdf`, `image/png`). */
  allowedFileTypes?: string[];
};

/** A validation rule as a frame applies it; `error` replaces the default message. */
export type FrameValidationRule =
  | { type: 'REGEX_MATCH_RULE'; params: { regex: string; error?: string } }
  | { type: 'LENGTH_MATCH_RULE'; params: { min?: number; max?: number; error?: string } }
  | { type: 'ELEMENT_VALUE_MATCH_RULE'; params: { element: string; error?: string } };

/** Messages the parent sends to a frame (without the tag, see {@link parentMessage}). */
export type ParentToFrameMessage =
  | { type: 'init'; options: FrameFieldOptions }
  | {
      type: 'collect';
      requestId: string;
      /** The vault's card and records URLs; a frame posts only to its own origin's `/vault/`. */
      tokenizeURL: string;
      recordsURL: string;
      /** Every element of the container; the collector gathers the others' values on the sibling channel. */
      elements: CollectElementRef[];
      /** The integrator's extra records (additionalFields.records), merged with the elements' by table. */
      additionalRecords: CollectRecordInput[];
      /** Answer tokens per field (default true). */
      tokens: boolean;
      upsert: Array<{ table: string; column: string }>;
    }
  | { type: 'bearer-token'; requestId: string; token: string }
  /** Shows the field's error; with a `requestId` the frame answers `validated` with its fresh state. */
  | { type: 'validate'; requestId?: string }
  | { type: 'reset' }
  /**
   * Sets a non-card element's value (setValue outside PROD, checkout-spec §5). Card and PIN frames
   * ignore it, and a value that looks like a card number is refused: card data never comes from the page.
   */
  | { type: 'set-value'; value: string };

/** Messages a frame sends to the parent (without the tag, see {@link frameMessage}). */
export type FrameToParentMessage =
  | { frameId: string; type: 'event'; event: ElementEvent; state: ElementState }
  | { frameId: string; type: 'height'; height: number }
  | { frameId: string; type: 'token-request'; requestId: string }
  /** The answer to a `validate` with a request id: the state right after validating. */
  | { frameId: string; type: 'validated'; requestId: string; state: ElementState }
  | { frameId: string; type: 'collect-result'; requestId: string; ok: true; result: CollectResult }
  | { frameId: string; type: 'collect-result'; requestId: string; ok: false; error: { code: string; message: string; status?: number } };

/** Messages between sibling frames of one form, on a same-origin BroadcastChannel (never the parent). */
export type SiblingMessage =
  | { type: 'values-request'; requestId: string }
  | { type: 'values'; requestId: string; frameId: string; field: FrameFieldType; value: string; valid: boolean }
  | { type: 'network'; network: string | undefined }
  /** A named element's current value, for its siblings' element-match rules (same origin only). */
  | { type: 'element-value'; name: string; value: string };

/** A message as it travels: tagged with the protocol and its version. */
export type Tagged<T> = T & { tag: typeof FRAME_MESSAGE_TAG; v: typeof FRAME_PROTOCOL_VERSION };

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Tags a parent → frame message. */
export function parentMessage<T extends ParentToFrameMessage>(message: T): Tagged<T> {
  return { tag: FRAME_MESSAGE_TAG, v: FRAME_PROTOCOL_VERSION, ...message };
}

/** Tags a frame → parent message with the sending frame's id. */
export function frameMessage(frameId: string, message: DistributiveOmit<FrameToParentMessage, 'frameId'>): Tagged<FrameToParentMessage> {
  return { tag: FRAME_MESSAGE_TAG, v: FRAME_PROTOCOL_VERSION, frameId, ...message } as Tagged<FrameToParentMessage>;
}

/** What the checks read of a received message event (a DOM `MessageEvent` fits; windows stay opaque here). */
export type ReceivedMessage = { origin: string; source: unknown; data: unknown };

/** A full card number: 12 or more digits in a row, spaces and dashes allowed between them. */
const FULL_PAN = /(?:\d[ -]?){12,}/;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isString = (value: unknown, max = 2_048): value is string => typeof value === 'string' && value.length <= max;
const isIdentifier = (value: unknown): value is string => typeof value === 'string' && /^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(value);
const isTagged = (data: unknown): data is Record<string, unknown> =>
  isObject(data) && data.tag === FRAME_MESSAGE_TAG && data.v === FRAME_PROTOCOL_VERSION;

function isElementState(value: unknown): value is ElementState {
  if (!isObject(value)) return false;
  const flags = ['isEmpty', 'isComplete', 'isValid', 'isFocused', 'required'] as const;
  if (!flags.every((flag) => typeof value[flag] === 'boolean')) return false;
  if (!isString(value.value, 64) || FULL_PAN.test(value.value)) return false;
  if (value.network !== undefined && !isString(value.network, 32)) return false;
  return value.error === undefined || isString(value.error, 200);
}

/** Shape check of a frame → parent message. A state whose value looks like a full card number is refused. */
export function parseFrameMessage(data: unknown): FrameToParentMessage | undefined {
  if (!isTagged(data) || !isString(data.frameId, 64)) return undefined;
  switch (data.type) {
    case 'event':
      return ELEMENT_EVENTS.includes(data.event as ElementEvent) && isElementState(data.state)
        ? { frameId: data.frameId, type: 'event', event: data.event as ElementEvent, state: data.state }
        : undefined;
    case 'height':
      return typeof data.height === 'number' && data.height >= 0 && data.height < 2_000
        ? { frameId: data.frameId, type: 'height', height: data.height }
        : undefined;
    case 'token-request':
      return isString(data.requestId, 64) ? { frameId: data.frameId, type: 'token-request', requestId: data.requestId } : undefined;
    case 'validated':
      return isString(data.requestId, 64) && isElementState(data.state)
        ? { frameId: data.frameId, type: 'validated', requestId: data.requestId, state: data.state }
        : undefined;
    case 'collect-result': {
      if (!isString(data.requestId, 64)) return undefined;
      const base = { frameId: data.frameId, type: 'collect-result' as const, requestId: data.requestId };
      if (data.ok === true) {
        const result = isObject(data.result) ? parseCollectResult(data.result) : undefined;
        return result ? { ...base, ok: true, result } : undefined;
      }
      const error = data.error;
      if (data.ok !== false || !isObject(error) || !isString(error.code, 64) || !isString(error.message, 500)) return undefined;
      const status = typeof error.status === 'number' ? { status: error.status } : {};
      return { ...base, ok: false, error: { code: error.code, message: error.message, ...status } };
    }
    default:
      return undefined;
  }
}

function parseCollectResult(result: Record<string, unknown>): CollectResult | undefined {
  let card: CollectSuccess | undefined;
  if (result.card !== undefined) {
    const value = result.card;
    if (
      !isObject(value) ||
      !isString(value.token, 200) ||
      !isString(value.network, 32) ||
      !isString(value.bin, 8) ||
      !isString(value.last4, 4) ||
      !isString(value.expiresAt, 64)
    )
      return undefined;
    card = { token: value.token, network: value.network, bin: value.bin, last4: value.last4, expiresAt: value.expiresAt };
  }
  if (!Array.isArray(result.records) || result.records.length > 50) return undefined;
  const records: CollectedRecord[] = [];
  for (const record of result.records) {
    if (!isObject(record) || !isString(record.table, 64) || !isString(record.skyflowID, 64)) return undefined;
    // Tokens only: a value that looks like a card number is refused like in element states.
    const fields = isObject(record.fields) ? stringRecord(record.fields, 50, 200) : undefined;
    if (fields && Object.values(fields).some((token) => FULL_PAN.test(token))) return undefined;
    records.push({ table: record.table, skyflowID: record.skyflowID, ...(fields ? { fields } : {}) });
  }
  return { ...(card ? { card } : {}), records };
}

/**
 * Accepts a message event only from the gateway origin, from one of our own frames' windows, and
 * with a valid shape. Anything else is ignored (undefined).
 */
export function acceptFrameMessage(
  event: ReceivedMessage,
  expected: { origin: string; sources: ReadonlyArray<unknown> },
): FrameToParentMessage | undefined {
  if (event.origin !== expected.origin) return undefined;
  if (!event.source || !expected.sources.includes(event.source)) return undefined;
  return parseFrameMessage(event.data);
}

/** Style values may not break out of the declaration nor load anything. */
const UNSAFE_STYLE_VALUE = /[;{}<>\\]|url\(|expression\(/i;

/** Keeps only the allowed CSS properties with safe values; undefined when `value` is not an object. */
function safeStyles(value: unknown): Record<string, string> | undefined {
  if (!isObject(value)) return undefined;
  return Object.fromEntries(
    Object.entries(value).filter(
      (entry): entry is [string, string] =>
        (FRAME_STYLE_PROPERTIES as readonly string[]).includes(entry[0]) && isString(entry[1], 100) && !UNSAFE_STYLE_VALUE.test(entry[1]),
    ),
  );
}

function parseOptions(options: Record<string, unknown>): FrameFieldOptions {
  const styles = safeStyles(options.styles);
  const labelStyles = safeStyles(options.labelStyles);
  const errorTextStyles = safeStyles(options.errorTextStyles);
  const rejectedNetworks = Array.isArray(options.rejectedNetworks)
    ? options.rejectedNetworks.filter((network): network is (typeof CARD_NETWORKS)[number] =>
        (CARD_NETWORKS as readonly unknown[]).includes(network),
      )
    : undefined;
  const validations = Array.isArray(options.validations)
    ? options.validations.slice(0, 10).flatMap((rule) => {
        const parsed = parseValidationRule(rule);
        return parsed ? [parsed] : [];
      })
    : undefined;
  const mask = isObject(options.mask) && isString(options.mask.pattern, 100) ? options.mask : undefined;
  const translation = mask && isObject(mask.translation) ? stringRecord(mask.translation, 20, 100) : undefined;
  const replace =
    isObject(options.replacePattern) && isString(options.replacePattern.pattern, 200) && isString(options.replacePattern.replacement, 100)
      ? { pattern: options.replacePattern.pattern, replacement: options.replacePattern.replacement }
      : undefined;
  const choices = Array.isArray(options.choices)
    ? options.choices
        .slice(0, 200)
        .filter(
          (choice): choice is { value: string; text: string } =>
            isObject(choice) && isString(choice.value, 200) && isString(choice.text, 200),
        )
        .map(({ value, text }) => ({ value, text }))
    : undefined;
  const fileTypes = Array.isArray(options.allowedFileTypes)
    ? options.allowedFileTypes.filter((type): type is string => isString(type, 100)).slice(0, 20)
    : undefined;
  return {
    ...(isString(options.name, 100) ? { name: options.name } : {}),
    ...(validations ? { validations } : {}),
    ...(mask ? { mask: { pattern: mask.pattern as string, ...(translation ? { translation } : {}) } } : {}),
    ...(replace ? { replacePattern: replace } : {}),
    ...(isString(options.value, 200) ? { value: options.value } : {}),
    ...(choices ? { choices } : {}),
    ...(fileTypes ? { allowedFileTypes: fileTypes } : {}),
    ...(isString(options.placeholder, 100) ? { placeholder: options.placeholder } : {}),
    ...(isString(options.label, 100) ? { label: options.label } : {}),
    ...(typeof options.required === 'boolean' ? { required: options.required } : {}),
    ...(typeof options.enableCardIcon === 'boolean' ? { enableCardIcon: options.enableCardIcon } : {}),
    ...(isString(options.format, 40) ? { format: options.format } : {}),
    ...(styles ? { styles } : {}),
    ...(labelStyles ? { labelStyles } : {}),
    ...(errorTextStyles ? { errorTextStyles } : {}),
    ...(rejectedNetworks ? { rejectedNetworks } : {}),
  };
}

function stringRecord(value: Record<string, unknown>, maxKeys: number, maxLength: number): Record<string, string> {
  return Object.fromEntries(
    Object.entries(value)
      .filter((entry): entry is [string, string] => isString(entry[1], maxLength))
      .slice(0, maxKeys),
  );
}

/** A validation rule with a known type and well-formed params; anything else is dropped. */
function parseValidationRule(rule: unknown): FrameValidationRule | undefined {
  if (!isObject(rule) || !isObject(rule.params)) return undefined;
  const params = rule.params;
  const error = isString(params.error, 200) ? { error: params.error } : {};
  switch (rule.type) {
    case 'REGEX_MATCH_RULE':
      return isString(params.regex, 200) ? { type: rule.type, params: { regex: params.regex, ...error } } : undefined;
    case 'LENGTH_MATCH_RULE': {
      const min = typeof params.min === 'number' ? { min: params.min } : {};
      const max = typeof params.max === 'number' ? { max: params.max } : {};
      return 'min' in min || 'max' in max ? { type: rule.type, params: { ...min, ...max, ...error } } : undefined;
    }
    case 'ELEMENT_VALUE_MATCH_RULE':
      return isString(params.element, 100) ? { type: rule.type, params: { element: params.element, ...error } } : undefined;
    default:
      return undefined;
  }
}

/** Shape check of a parent → frame message. Options keep only known keys; styles only safe properties and values. */
export function parseParentMessage(data: unknown): ParentToFrameMessage | undefined {
  if (!isTagged(data)) return undefined;
  switch (data.type) {
    case 'init':
      return isObject(data.options) ? { type: 'init', options: parseOptions(data.options) } : undefined;
    case 'collect': {
      if (!isString(data.requestId, 64) || !isString(data.tokenizeURL) || !isString(data.recordsURL)) return undefined;
      if (!Array.isArray(data.elements) || data.elements.length === 0 || data.elements.length > 50) return undefined;
      const elements: CollectElementRef[] = [];
      for (const element of data.elements) {
        if (!isObject(element) || !isString(element.frameId, 64) || !FRAME_FIELD_TYPES.includes(element.field as FrameFieldType))
          return undefined;
        elements.push({
          frameId: element.frameId,
          field: element.field as FrameFieldType,
          ...(isIdentifier(element.table) ? { table: element.table } : {}),
          ...(isIdentifier(element.column) ? { column: element.column } : {}),
          ...(isString(element.skyflowID, 64) ? { skyflowID: element.skyflowID } : {}),
        });
      }
      const additionalRecords = (Array.isArray(data.additionalRecords) ? data.additionalRecords : []).slice(0, 20).flatMap((record) =>
        isObject(record) && isIdentifier(record.table) && isObject(record.fields)
          ? [
              {
                table: record.table,
                fields: stringRecord(record.fields, 50, 4_096),
                ...(isString(record.skyflowID, 64) ? { skyflowID: record.skyflowID } : {}),
              },
            ]
          : [],
      );
      const upsert = (Array.isArray(data.upsert) ? data.upsert : [])
        .slice(0, 20)
        .flatMap((rule) =>
          isObject(rule) && isIdentifier(rule.table) && isIdentifier(rule.column) ? [{ table: rule.table, column: rule.column }] : [],
        );
      return {
        type: 'collect',
        requestId: data.requestId,
        tokenizeURL: data.tokenizeURL,
        recordsURL: data.recordsURL,
        elements,
        additionalRecords,
        tokens: data.tokens !== false,
        upsert,
      };
    }
    case 'bearer-token':
      return isString(data.requestId, 64) && isString(data.token, 4_096)
        ? { type: 'bearer-token', requestId: data.requestId, token: data.token }
        : undefined;
    case 'validate':
      return isString(data.requestId, 64) ? { type: 'validate', requestId: data.requestId } : { type: 'validate' };
    case 'reset':
      return { type: data.type };
    case 'set-value':
      return isString(data.value, 4_096) && !FULL_PAN.test(data.value) ? { type: 'set-value', value: data.value } : undefined;
    default:
      return undefined;
  }
}

/** Accepts a message only from the embedding page (origin and window) with a known shape. */
export function acceptParentMessage(
  event: ReceivedMessage,
  expected: { origin: string; parent: unknown },
): ParentToFrameMessage | undefined {
  if (event.origin !== expected.origin || !event.source || event.source !== expected.parent) return undefined;
  return parseParentMessage(event.data);
}

/**
 * The tokenize URL must be the gateway's own vault (same origin as the frame): a parent cannot
 * make the frame send card data anywhere else.
 */
export function isOwnVaultURL(url: string, frameOrigin: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.origin === frameOrigin && parsed.pathname.startsWith('/vault/');
  } catch {
    return false;
  }
}

/**
 * The BIN of a masked card number as frames report it: the first 8 characters with dashes, spaces
 * and X removed (checkout-spec §5) — 6 digits for numbers of 15 digits or fewer, which the mask keeps.
 */
export function binOf(masked: string): string {
  return masked.replace(/[-\sXx]/g, '').slice(0, 8);
}
