import { describe, expect, it } from 'vitest';
import { GATEWAY_WINDOW_MESSAGE_TYPE } from '@roots/contracts/gateway';
import { acceptGatewayWindowMessage } from './gateway-window-message';

const popup = { name: 'popup' } as unknown as MessageEventSource;
const other = { name: 'other' } as unknown as MessageEventSource;
const expected = { origin: 'https://gw.example', executionId: 'ex_1', source: popup };
const data = {
  type: GATEWAY_WINDOW_MESSAGE_TYPE,
  source: 'threeDS',
  executionId: 'ex_1',
  status: 'authorizeSuccessful',
  outcome: 'success',
};

describe('gateway window message', () => {
  it('accepts the completion message from the gateway origin', () => {
    expect(acceptGatewayWindowMessage({ origin: 'https://gw.example', data, source: popup }, expected)).toEqual(data);
  });
  it.each([
    ['another origin', { origin: 'https://evil.example', data, source: popup }],
    ['another window of the gateway origin', { origin: 'https://gw.example', data, source: other }],
    ['no window', { origin: 'https://gw.example', data, source: null }],
    ['another execution', { origin: 'https://gw.example', data: { ...data, executionId: 'ex_2' }, source: popup }],
    ['another type', { origin: 'https://gw.example', data: { ...data, type: 'x' }, source: popup }],
    ['an unknown source', { origin: 'https://gw.example', data: { ...data, source: 'mail' }, source: popup }],
    ['an unknown outcome', { origin: 'https://gw.example', data: { ...data, outcome: 'maybe' }, source: popup }],
    ['null data', { origin: 'https://gw.example', data: null, source: popup }],
  ])('ignores %s', (_name, event) => {
    expect(acceptGatewayWindowMessage(event, expected)).toBeUndefined();
  });
  it('ignores everything when no popup is expected', () => {
    expect(
      acceptGatewayWindowMessage({ origin: 'https://gw.example', data, source: popup }, { ...expected, source: undefined }),
    ).toBeUndefined();
  });
});
