/**
 * Frame side of the parent ↔ secure-frame protocol. Mirror of
 * packages/checkout/src/core/security/frame-messages.ts (the two packages may not import each
 * other; change both together). Every message from the parent passes three checks: the sender's
 * origin is the embedding page's, the sender is our parent window, and the shape is known.
 */

import { FIELD_TYPES, type FieldType } from './field-types';

export const FRAME_MESSAGE_TAG = 'roots-secure-fields';
export const FRAME_PROTOCOL_VERSION = 1;

export type ElementEvent = 'READY' | 'CHANGE' | 'FOCUS' | 'BLUR' | 'SUBMIT';
export type ElementState = {
  isEmpty: boolean;
  isComplete: boolean;
  isValid: boolean;
  isFocused: boolean;
  value: string;
  required: boolean;
  network?: string;
  error?: string;
};
export type FrameFieldOptions = {
  placeholder?: string;
  label?: string;
  required?: boolean;
  enableCardIcon?: boolean;
  format?: string;
  styles?: Record<string, string>;
};

export type ParentToFrameMessage =
  | { type: 'init'; options: FrameFieldOptions }
  | { type: 'collect'; requestId: string; tokenizeURL: string; fields: FieldType[] }
  | { type: 'bearer-token'; requestId: string; token: string }
  | { type: 'validate' }
  | { type: 'reset' };

export { FIELD_TYPES, type FieldType };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isString = (value: unknown, max = 2_048): value is string => typeof value === 'string' && value.length <= max;
const STYLE_KEYS = [
  'color',
  'fontSize',
  'fontFamily',
  'fontWeight',
  'letterSpacing',
  'backgroundColor',
  'padding',
  'border',
  'borderRadius',
];

/** Shape check of a parent → frame message. Styles are limited to a safe list of properties. */
export function parseParentMessage(data: unknown): ParentToFrameMessage | undefined {
  if (!isObject(data) || data.tag !== FRAME_MESSAGE_TAG || data.v !== FRAME_PROTOCOL_VERSION) return undefined;
  switch (data.type) {
    case 'init': {
      if (!isObject(data.options)) return undefined;
      const options = data.options;
      const styles = isObject(options.styles)
        ? Object.fromEntries(
            Object.entries(options.styles).filter(
              ([key, value]) => STYLE_KEYS.includes(key) && isString(value, 100) && !/[;{}<>]|url\(/i.test(value),
            ),
          )
        : undefined;
      return {
        type: 'init',
        options: {
          ...(isString(options.placeholder, 100) ? { placeholder: options.placeholder } : {}),
          ...(isString(options.label, 100) ? { label: options.label } : {}),
          ...(typeof options.required === 'boolean' ? { required: options.required } : {}),
          ...(typeof options.enableCardIcon === 'boolean' ? { enableCardIcon: options.enableCardIcon } : {}),
          ...(isString(options.format, 40) ? { format: options.format } : {}),
          ...(styles ? { styles: styles as Record<string, string> } : {}),
        },
      };
    }
    case 'collect':
      if (!isString(data.requestId, 64) || !isString(data.tokenizeURL) || !Array.isArray(data.fields)) return undefined;
      if (!data.fields.every((field) => FIELD_TYPES.includes(field as FieldType))) return undefined;
      return { type: 'collect', requestId: data.requestId, tokenizeURL: data.tokenizeURL, fields: data.fields as FieldType[] };
    case 'bearer-token':
      return isString(data.requestId, 64) && isString(data.token, 4_096)
        ? { type: 'bearer-token', requestId: data.requestId, token: data.token }
        : undefined;
    case 'validate':
    case 'reset':
      return { type: data.type };
    default:
      return undefined;
  }
}

/** Accepts a message only from the embedding page (origin and window) with a known shape. */
export function acceptParentMessage(
  event: Pick<MessageEvent, 'origin' | 'source' | 'data'>,
  expected: { origin: string; parent: Window | null },
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

/** Messages between sibling frames of one form, on a same-origin BroadcastChannel. */
export type SiblingMessage =
  | { type: 'values-request'; requestId: string }
  | { type: 'values'; requestId: string; field: FieldType; value: string; valid: boolean }
  | { type: 'network'; network: string | undefined };
