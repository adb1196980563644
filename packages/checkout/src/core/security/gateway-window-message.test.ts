import { describe, expect, it } from 'vitest';
import { GATEWAY_WINDOW_MESSAGE_TYPE } from '@roots/contracts/gateway';
import { acceptGatewayWindowMessage } from './gateway-window-message';

const expected = { origin: 'https://gw.example', executionId: 'ex_1' };
const data = {
  type: GATEWAY_WINDOW_MESSAGE_TYPE,
  source: 'threeDS',
  executionId: 'ex_1',
  status: 'authorizeSuccessful',
  outcome: 'success',
};

describe('gateway window message', () => {
  it('accepts the completion message from the gateway origin', () => {
    expect(acceptGatewayWindowMessage({ origin: 'https://gw.example', data }, expected)).toEqual(data);
  });
  it.each([
    ['another origin', { origin: 'https://evil.example', data }],
    ['another execution', { origin: 'https://gw.example', data: { ...data, executionId: 'ex_2' } }],
    ['another type', { origin: 'https://gw.example', data: { ...data, type: 'x' } }],
    ['an unknown source', { origin: 'https://gw.example', data: { ...data, source: 'mail' } }],
    ['an unknown outcome', { origin: 'https://gw.example', data: { ...data, outcome: 'maybe' } }],
    ['null data', { origin: 'https://gw.example', data: null }],
  ])('ignores %s', (_name, event) => {
    expect(acceptGatewayWindowMessage(event, expected)).toBeUndefined();
  });
});
