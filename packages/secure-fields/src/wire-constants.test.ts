import { CHECKOUT_CLIENT_VERSION, GATEWAY_HEADERS } from '@roots/contracts/gateway';
import { expect, it } from 'vitest';
import * as wire from './wire-constants';

it('copies the gateway wire constants exactly', () => {
  expect(wire.HEADER_IDEMPOTENCY_KEY).toBe(GATEWAY_HEADERS.idempotencyKey);
  expect(wire.HEADER_CLIENT_VERSION).toBe(GATEWAY_HEADERS.clientVersion);
  expect(wire.HEADER_CLIENT_TYPE).toBe(GATEWAY_HEADERS.clientType);
  expect(wire.HEADER_SKY_METADATA).toBe(GATEWAY_HEADERS.skyMetadata);
  expect(wire.HEADER_REQUEST_ID).toBe(GATEWAY_HEADERS.requestId);
  expect(wire.CLIENT_VERSION).toBe(CHECKOUT_CLIENT_VERSION);
});
