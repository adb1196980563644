import {
  CHECKOUT_CLIENT_VERSION,
  GATEWAY_HEADERS,
  GATEWAY_UNAUTHORIZED_MESSAGE,
  GATEWAY_WINDOW_MESSAGE_TYPE,
} from '@roots/contracts/gateway';
import { expect, it } from 'vitest';
import { CHECKOUT_MESSAGES } from '../errors/checkout-error';
import * as wire from './wire-constants';

it('copies the gateway wire constants exactly', () => {
  expect(wire.HEADER_IDEMPOTENCY_KEY).toBe(GATEWAY_HEADERS.idempotencyKey);
  expect(wire.HEADER_CLIENT_VERSION).toBe(GATEWAY_HEADERS.clientVersion);
  expect(wire.HEADER_CLIENT_TYPE).toBe(GATEWAY_HEADERS.clientType);
  expect(wire.CLIENT_VERSION).toBe(CHECKOUT_CLIENT_VERSION);
  expect(wire.WINDOW_MESSAGE_TYPE).toBe(GATEWAY_WINDOW_MESSAGE_TYPE);
  expect(CHECKOUT_MESSAGES.unauthorized).toBe(GATEWAY_UNAUTHORIZED_MESSAGE);
});
