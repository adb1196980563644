/**
 * The parent ↔ secure-frame message protocol, and the checks every received message passes:
 * the sender's origin, the sender's window, then the shape. The frame side keeps a mirror of this
 * file in packages/secure-fields/src/frame-messages.ts (the two packages may not import each other).
 */

/** Every message carries this tag so foreign messages are ignored cheaply. */
export const FRAME_MESSAGE_TAG = 'roots-secure-fields';
/** Protocol version; bumped on any incompatible change. */
export const FRAME_PROTOCOL_VERSION = 1;

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

export const ELEMENT_EVENTS = ['READY', 'CHANGE', 'FOCUS', 'BLUR', 'SUBMIT'] as const;
export type ElementEvent = (typeof ELEMENT_EVENTS)[number];

export type CollectSuccess = { token: string; network: string; bin: string; last4: string; expiresAt: string };

/** Messages a frame sends to the parent. */
export type FrameToParentMessage =
  | { tag: typeof FRAME_MESSAGE_TAG; v: 1; frameId: string; type: 'event'; event: ElementEvent; state: ElementState }
  | { tag: typeof FRAME_MESSAGE_TAG; v: 1; frameId: string; type: 'height'; height: number }
  | { tag: typeof FRAME_MESSAGE_TAG; v: 1; frameId: string; type: 'token-request'; requestId: string }
  | { tag: typeof FRAME_MESSAGE_TAG; v: 1; frameId: string; type: 'collect-result'; requestId: string; ok: true; result: CollectSuccess }
  | {
      tag: typeof FRAME_MESSAGE_TAG;
      v: 1;
      frameId: string;
      type: 'collect-result';
      requestId: string;
      ok: false;
      error: { code: string; message: string; status?: number };
    };

/** Field options the parent sends with `init`. */
export type FrameFieldOptions = {
  placeholder?: string;
  label?: string;
  required?: boolean;
  enableCardIcon?: boolean;
  /** Card number: `space` (default) or `hyphen` grouping; expiry: MM/YY, YYYY/MM, YY/MM, MM/YYYY; year: YY or YYYY. */
  format?: string;
  styles?: Record<string, string>;
  /** Extra rules for PIN and input fields. */
  validations?: unknown[];
};

/** Messages the parent sends to a frame. */
export type ParentToFrameMessage =
  | { tag: typeof FRAME_MESSAGE_TAG; v: 1; type: 'init'; options: FrameFieldOptions }
  | { tag: typeof FRAME_MESSAGE_TAG; v: 1; type: 'collect'; requestId: string; tokenizeURL: string; fields: string[] }
  | { tag: typeof FRAME_MESSAGE_TAG; v: 1; type: 'bearer-token'; requestId: string; token: string }
  | { tag: typeof FRAME_MESSAGE_TAG; v: 1; type: 'validate' }
  | { tag: typeof FRAME_MESSAGE_TAG; v: 1; type: 'reset' };

/** A full card number: 12 or more digits in a row, spaces and dashes allowed between them. */
const FULL_PAN = /(?:\d[ -]?){12,}/;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isString = (value: unknown, max = 2_048): value is string => typeof value === 'string' && value.length <= max;

function isElementState(value: unknown): value is ElementState {
  if (!isObject(value)) return false;
  const flags = ['isEmpty', 'isComplete', 'isValid', 'isFocused', 'required'] as const;
  if (!flags.every((flag) => typeof value[flag] === 'boolean')) return false;
  if (!isString(value.value, 64) || FULL_PAN.test(value.value)) return false;
  if (value.network !== undefined && !isString(value.network, 32)) return false;
  return value.error === undefined || isString(value.error, 200);
}

/** Shape check of a frame → parent message (after the origin and source checks). */
export function parseFrameMessage(data: unknown): FrameToParentMessage | undefined {
  if (!isObject(data) || data.tag !== FRAME_MESSAGE_TAG || data.v !== FRAME_PROTOCOL_VERSION || !isString(data.frameId, 64))
    return undefined;
  switch (data.type) {
    case 'event':
      return ELEMENT_EVENTS.includes(data.event as ElementEvent) && isElementState(data.state) ? (data as FrameToParentMessage) : undefined;
    case 'height':
      return typeof data.height === 'number' && data.height >= 0 && data.height < 2_000 ? (data as FrameToParentMessage) : undefined;
    case 'token-request':
      return isString(data.requestId, 64) ? (data as FrameToParentMessage) : undefined;
    case 'collect-result': {
      if (!isString(data.requestId, 64)) return undefined;
      if (data.ok === true) {
        const result = data.result;
        if (
          !isObject(result) ||
          !isString(result.token, 200) ||
          !isString(result.network, 32) ||
          !isString(result.bin, 8) ||
          !isString(result.last4, 4)
        )
          return undefined;
        return data as FrameToParentMessage;
      }
      return data.ok === false && isObject(data.error) && isString(data.error.code, 64) && isString(data.error.message, 500)
        ? (data as FrameToParentMessage)
        : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * Accepts a message event only from the gateway origin, from one of our own frames' windows, and
 * with a valid shape. Anything else is ignored (returns undefined).
 */
export function acceptFrameMessage(
  event: Pick<MessageEvent, 'origin' | 'source' | 'data'>,
  expected: { origin: string; sources: ReadonlyArray<Window | null | undefined> },
): FrameToParentMessage | undefined {
  if (event.origin !== expected.origin) return undefined;
  if (!event.source || !expected.sources.includes(event.source as Window)) return undefined;
  return parseFrameMessage(event.data);
}

export function parentMessage<T extends Omit<ParentToFrameMessage, 'tag' | 'v'>>(message: T): T & { tag: typeof FRAME_MESSAGE_TAG; v: 1 } {
  return { tag: FRAME_MESSAGE_TAG, v: 1, ...message };
}
