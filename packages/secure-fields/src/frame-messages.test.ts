import { describe, expect, it } from 'vitest';
import { acceptParentMessage, FRAME_MESSAGE_TAG, isOwnVaultURL, parseParentMessage } from './frame-messages';

const parent = {} as Window;
const base = { tag: FRAME_MESSAGE_TAG, v: 1 };

describe('parent → frame message acceptance', () => {
  it('accepts a known message from the embedding page', () => {
    const event = { origin: 'https://shop.example', source: parent as MessageEventSource, data: { ...base, type: 'reset' } };
    expect(acceptParentMessage(event, { origin: 'https://shop.example', parent })).toEqual({ type: 'reset' });
  });
  it('ignores another origin or another window', () => {
    const data = { ...base, type: 'reset' };
    expect(
      acceptParentMessage(
        { origin: 'https://evil.example', source: parent as MessageEventSource, data },
        { origin: 'https://shop.example', parent },
      ),
    ).toBeUndefined();
    expect(
      acceptParentMessage(
        { origin: 'https://shop.example', source: {} as MessageEventSource, data },
        { origin: 'https://shop.example', parent },
      ),
    ).toBeUndefined();
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
  it('keeps only safe style properties and values', () => {
    const parsed = parseParentMessage({
      ...base,
      type: 'init',
      options: {
        placeholder: 'Card',
        styles: { color: 'red', backgroundImage: 'url(x)', fontSize: '16px;}body{', border: '1px solid url(https://evil)' },
      },
    });
    expect(parsed).toEqual({ type: 'init', options: { placeholder: 'Card', styles: { color: 'red' } } });
  });
  it('only tokenises into the gateway’s own vault', () => {
    expect(isOwnVaultURL('https://gw.example/vault/v1/tokens', 'https://gw.example')).toBe(true);
    expect(isOwnVaultURL('https://evil.example/vault/v1/tokens', 'https://gw.example')).toBe(false);
    expect(isOwnVaultURL('https://gw.example/v1/executions', 'https://gw.example')).toBe(false);
    expect(isOwnVaultURL('not a url', 'https://gw.example')).toBe(false);
  });
});
