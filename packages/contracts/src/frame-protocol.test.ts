import { describe, expect, it } from 'vitest';
import {
  acceptFrameMessage,
  binOf,
  acceptParentMessage,
  FRAME_MESSAGE_TAG,
  frameMessage,
  isOwnVaultURL,
  parentMessage,
  parseFrameMessage,
  parseParentMessage,
} from './frame-protocol';

const GATEWAY = 'https://gw.example';
const SHOP = 'https://shop.example';
const frameWindow = { name: 'frame' };
const parentWindow = { name: 'parent' };
const base = { tag: FRAME_MESSAGE_TAG, v: 1 };
const state = {
  isEmpty: false,
  isComplete: true,
  isValid: true,
  isFocused: false,
  value: '424242XXXXXXXXXX',
  required: true,
  network: 'visa',
};
const event = (data: unknown, origin: string, source: unknown) => ({ data, origin, source });

describe('frame → parent (the parent accepts)', () => {
  const from = { ...base, frameId: 'f1' };

  it('accepts a well-formed event from our frame on the gateway origin', () => {
    const accepted = acceptFrameMessage(event({ ...from, type: 'event', event: 'CHANGE', state }, GATEWAY, frameWindow), {
      origin: GATEWAY,
      sources: [frameWindow],
    });
    expect(accepted).toEqual({ frameId: 'f1', type: 'event', event: 'CHANGE', state });
  });

  it('ignores other origins and other windows', () => {
    const data = { ...from, type: 'event', event: 'CHANGE', state };
    const expected = { origin: GATEWAY, sources: [frameWindow] };
    expect(acceptFrameMessage(event(data, 'https://evil.example', frameWindow), expected)).toBeUndefined();
    expect(acceptFrameMessage(event(data, GATEWAY, {}), expected)).toBeUndefined();
    expect(acceptFrameMessage(event(data, GATEWAY, null), expected)).toBeUndefined();
  });

  it.each([
    ['no tag', { ...from, tag: 'x', type: 'height', height: 10 }],
    ['wrong version', { ...from, v: 2, type: 'height', height: 10 }],
    ['no frame id', { ...base, type: 'height', height: 10 }],
    ['unknown type', { ...from, type: 'steal' }],
    ['unknown event', { ...from, type: 'event', event: 'KEYDOWN', state }],
    ['state missing flags', { ...from, type: 'event', event: 'CHANGE', state: { value: '' } }],
    ['a full card number in value', { ...from, type: 'event', event: 'CHANGE', state: { ...state, value: '4242 4242 4242 4242' } }],
    ['a dashed card number in value', { ...from, type: 'event', event: 'CHANGE', state: { ...state, value: '4242-4242-4242-4242' } }],
    ['absurd height', { ...from, type: 'height', height: 1e9 }],
    ['collect result without records', { ...from, type: 'collect-result', requestId: 'r', ok: true, result: {} }],
    [
      'collect result with a card but no token',
      { ...from, type: 'collect-result', requestId: 'r', ok: true, result: { card: {}, records: [] } },
    ],
    [
      'a card number as a record token',
      {
        ...from,
        type: 'collect-result',
        requestId: 'r',
        ok: true,
        result: { records: [{ table: 't', skyflowID: 'r', fields: { n: '4242424242424242' } }] },
      },
    ],
    ['collect error without code', { ...from, type: 'collect-result', requestId: 'r', ok: false, error: {} }],
    ['not an object', 'hello'],
  ])('rejects %s', (_name, data) => {
    expect(parseFrameMessage(data)).toBeUndefined();
  });

  it('accepts token requests and collect results, keeping only known keys', () => {
    expect(parseFrameMessage({ ...from, type: 'token-request', requestId: 'r' })).toEqual({
      frameId: 'f1',
      type: 'token-request',
      requestId: 'r',
    });
    const card = { token: 't', network: 'visa', bin: '42424242', last4: '4242', expiresAt: '2030-01-01T00:00:00Z' };
    const records = [{ table: 'persons', skyflowID: 'rec_1', fields: { email: 'tkn_1' } }];
    expect(
      parseFrameMessage({
        ...from,
        type: 'collect-result',
        requestId: 'r',
        ok: true,
        result: { card: { ...card, cardNumber: 'x' }, records, extra: 1 },
      }),
    ).toEqual({ frameId: 'f1', type: 'collect-result', requestId: 'r', ok: true, result: { card, records } });
    expect(
      parseFrameMessage({ ...from, type: 'collect-result', requestId: 'r', ok: false, error: { code: 'CARD_INVALID', message: 'no' } }),
    ).toMatchObject({ ok: false, error: { code: 'CARD_INVALID', message: 'no' } });
  });

  it('tags what a frame sends so the parent accepts it', () => {
    const sent = frameMessage('f9', { type: 'height', height: 44 });
    expect(sent).toEqual({ ...base, frameId: 'f9', type: 'height', height: 44 });
    expect(parseFrameMessage(sent)).toEqual({ frameId: 'f9', type: 'height', height: 44 });
  });
});

describe('parent → frame (the frame accepts)', () => {
  it('accepts a known message from the embedding page', () => {
    expect(acceptParentMessage(event({ ...base, type: 'reset' }, SHOP, parentWindow), { origin: SHOP, parent: parentWindow })).toEqual({
      type: 'reset',
    });
  });

  it('ignores another origin or another window', () => {
    const data = { ...base, type: 'reset' };
    expect(acceptParentMessage(event(data, 'https://evil.example', parentWindow), { origin: SHOP, parent: parentWindow })).toBeUndefined();
    expect(acceptParentMessage(event(data, SHOP, {}), { origin: SHOP, parent: parentWindow })).toBeUndefined();
  });

  it.each([
    ['untagged', { type: 'reset' }],
    ['other version', { ...base, v: 9, type: 'reset' }],
    ['unknown type', { ...base, type: 'reveal' }],
    ['collect without fields', { ...base, type: 'collect', requestId: 'r', tokenizeURL: 'https://gw/vault/v1/tokens' }],
    ['collect with unknown field', { ...base, type: 'collect', requestId: 'r', tokenizeURL: 'x', fields: ['ssn'] }],
    ['token without value', { ...base, type: 'bearer-token', requestId: 'r' }],
    ['init without options', { ...base, type: 'init' }],
  ])('rejects %s', (_name, data) => {
    expect(parseParentMessage(data)).toBeUndefined();
  });

  it('keeps only safe style properties and values, known networks and known options', () => {
    const parsed = parseParentMessage({
      ...base,
      type: 'init',
      options: {
        placeholder: 'Card',
        styles: { color: 'red', backgroundImage: 'url(x)', fontSize: '16px;}body{', border: '1px solid url(https://evil)' },
        rejectedNetworks: ['discover', 'cheques'],
        onload: 'alert(1)',
      },
    });
    expect(parsed).toEqual({ type: 'init', options: { placeholder: 'Card', styles: { color: 'red' }, rejectedNetworks: ['discover'] } });
  });

  it('a validate may carry a request id; the frame answers validated with a state (never a card number)', () => {
    expect(parseParentMessage({ ...base, type: 'validate', requestId: 'v1' })).toEqual({ type: 'validate', requestId: 'v1' });
    expect(parseParentMessage({ ...base, type: 'validate' })).toEqual({ type: 'validate' });
    const state = { isEmpty: false, isComplete: true, isValid: true, isFocused: false, value: '424242XXXXXXXXXX', required: true };
    expect(parseFrameMessage({ ...base, frameId: 'f1', type: 'validated', requestId: 'v1', state })).toEqual({
      frameId: 'f1',
      type: 'validated',
      requestId: 'v1',
      state,
    });
    expect(
      parseFrameMessage({ ...base, frameId: 'f1', type: 'validated', requestId: 'v1', state: { ...state, value: '4242424242424242' } }),
    ).toBeUndefined();
  });

  it('set-value carries a string, never one that looks like a card number', () => {
    expect(parseParentMessage({ ...base, type: 'set-value', value: 'ada@example.com' })).toEqual({
      type: 'set-value',
      value: 'ada@example.com',
    });
    expect(parseParentMessage({ ...base, type: 'set-value', value: '4242 4242 4242 4242' })).toBeUndefined();
    expect(parseParentMessage({ ...base, type: 'set-value', value: 42 })).toBeUndefined();
  });

  it('keeps labelStyles and errorTextStyles with the same checks as styles', () => {
    const parsed = parseParentMessage({
      ...base,
      type: 'init',
      options: {
        labelStyles: { color: 'navy', fontWeight: '600', backgroundImage: 'url(x)' },
        errorTextStyles: { color: '#b00020', fontSize: '12px;}body{' },
      },
    });
    expect(parsed).toEqual({
      type: 'init',
      options: { labelStyles: { color: 'navy', fontWeight: '600' }, errorTextStyles: { color: '#b00020' } },
    });
  });

  it('tags what the parent sends so the frame accepts it', () => {
    const collect = {
      type: 'collect' as const,
      requestId: 'r',
      tokenizeURL: `${GATEWAY}/vault/v1/tokens`,
      recordsURL: `${GATEWAY}/vault/v1/records`,
      elements: [
        { frameId: 'f1', field: 'card-number' as const },
        { frameId: 'f2', field: 'input-field' as const, table: 'persons', column: 'email' },
      ],
      additionalRecords: [{ table: 'persons', fields: { plan: 'weekly' } }],
      tokens: true,
      upsert: [{ table: 'persons', column: 'email' }],
    };
    const sent = parentMessage(collect);
    expect(sent).toMatchObject(base);
    expect(parseParentMessage(sent)).toEqual(collect);
  });

  it.each([
    ['no elements', { elements: [] }],
    ['an unknown field', { elements: [{ frameId: 'f1', field: 'ssn' }] }],
    ['no records URL', { recordsURL: undefined }],
  ])('rejects a collect with %s', (_name, change) => {
    const collect = {
      ...base,
      type: 'collect',
      requestId: 'r',
      tokenizeURL: `${GATEWAY}/vault/v1/tokens`,
      recordsURL: `${GATEWAY}/vault/v1/records`,
      elements: [{ frameId: 'f1', field: 'pin' }],
      ...change,
    };
    expect(parseParentMessage(collect)).toBeUndefined();
  });

  it('drops table names that are not identifiers and non-string record values', () => {
    const parsed = parseParentMessage({
      ...base,
      type: 'collect',
      requestId: 'r',
      tokenizeURL: 'x',
      recordsURL: 'y',
      elements: [{ frameId: 'f1', field: 'pin', table: 'drop table', column: 'pin' }],
      additionalRecords: [
        { table: 'persons', fields: { plan: 'weekly', age: 30 } },
        { table: '1x', fields: { a: 'b' } },
      ],
    });
    expect(parsed).toMatchObject({
      elements: [{ frameId: 'f1', field: 'pin', column: 'pin' }],
      additionalRecords: [{ table: 'persons', fields: { plan: 'weekly' } }],
      tokens: true,
      upsert: [],
    });
  });

  it('only tokenises into the gateway’s own vault', () => {
    expect(isOwnVaultURL('https://gw.example/vault/v1/tokens', GATEWAY)).toBe(true);
    expect(isOwnVaultURL('https://evil.example/vault/v1/tokens', GATEWAY)).toBe(false);
    expect(isOwnVaultURL('https://gw.example/v1/executions', GATEWAY)).toBe(false);
    expect(isOwnVaultURL('not a url', GATEWAY)).toBe(false);
  });
});

describe('binOf', () => {
  it('takes the BIN as the first 8 with dashes, spaces and X removed', () => {
    expect(binOf('42424242XXXXXXXX')).toBe('42424242');
    expect(binOf('378282XXXXXXXXX')).toBe('378282');
    expect(binOf('4242-4242-4242')).toBe('42424242');
    expect(binOf('4242 4242 4242')).toBe('42424242');
  });
});
