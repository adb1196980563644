import { describe, expect, it } from 'vitest';
import { acceptFrameMessage, FRAME_MESSAGE_TAG, parentMessage, parseFrameMessage } from './frame-messages';

const GATEWAY = 'https://gw.example';
const frameWindow = {} as Window;
const state = {
  isEmpty: false,
  isComplete: true,
  isValid: true,
  isFocused: false,
  value: '424242XXXXXXXXXX',
  required: true,
  network: 'visa',
};
const event = (data: unknown, origin = GATEWAY, source: unknown = frameWindow) => ({ data, origin, source: source as MessageEventSource });
const base = { tag: FRAME_MESSAGE_TAG, v: 1, frameId: 'f1' };

describe('frame → parent message acceptance', () => {
  it('accepts a well-formed event from our frame on the gateway origin', () => {
    expect(
      acceptFrameMessage(event({ ...base, type: 'event', event: 'CHANGE', state }), { origin: GATEWAY, sources: [frameWindow] }),
    ).toBeDefined();
  });
  it('ignores other origins and other windows', () => {
    const data = { ...base, type: 'event', event: 'CHANGE', state };
    expect(acceptFrameMessage(event(data, 'https://evil.example'), { origin: GATEWAY, sources: [frameWindow] })).toBeUndefined();
    expect(acceptFrameMessage(event(data, GATEWAY, {}), { origin: GATEWAY, sources: [frameWindow] })).toBeUndefined();
    expect(acceptFrameMessage(event(data, GATEWAY, null), { origin: GATEWAY, sources: [frameWindow] })).toBeUndefined();
  });
  it.each([
    ['no tag', { ...base, tag: 'x', type: 'height', height: 10 }],
    ['wrong version', { ...base, v: 2, type: 'height', height: 10 }],
    ['unknown type', { ...base, type: 'steal' }],
    ['unknown event', { ...base, type: 'event', event: 'KEYDOWN', state }],
    ['state missing flags', { ...base, type: 'event', event: 'CHANGE', state: { value: '' } }],
    ['a full card number in value', { ...base, type: 'event', event: 'CHANGE', state: { ...state, value: '4242 4242 4242 4242' } }],
    ['absurd height', { ...base, type: 'height', height: 1e9 }],
    ['collect result without token', { ...base, type: 'collect-result', requestId: 'r', ok: true, result: {} }],
    ['collect error without code', { ...base, type: 'collect-result', requestId: 'r', ok: false, error: {} }],
    ['not an object', 'hello'],
  ])('rejects %s', (_name, data) => {
    expect(parseFrameMessage(data)).toBeUndefined();
  });
  it('accepts token requests and collect results', () => {
    expect(parseFrameMessage({ ...base, type: 'token-request', requestId: 'r' })).toBeDefined();
    expect(
      parseFrameMessage({
        ...base,
        type: 'collect-result',
        requestId: 'r',
        ok: true,
        result: { token: 't', network: 'visa', bin: '42424242', last4: '4242', expiresAt: 'x' },
      }),
    ).toBeDefined();
    expect(
      parseFrameMessage({ ...base, type: 'collect-result', requestId: 'r', ok: false, error: { code: 'CARD_INVALID', message: 'no' } }),
    ).toBeDefined();
  });
  it('tags parent messages', () => {
    expect(parentMessage({ type: 'reset' })).toEqual({ tag: FRAME_MESSAGE_TAG, v: 1, type: 'reset' });
  });
});
