/**
 * Gateway wire constants the parent bundle needs at runtime. Copied from @roots/contracts/gateway
 * because importing that module pulls zod into the bundle (the 25 KB budget); the test beside
 * this file proves the copies equal the contracts.
 */
export const HEADER_IDEMPOTENCY_KEY = 'idempotency-key';
export const HEADER_CLIENT_VERSION = 'x-client-version';
export const HEADER_CLIENT_TYPE = 'x-client-type';
export const CLIENT_VERSION = '5.26.0';
export const WINDOW_MESSAGE_TYPE = 'roots-gateway:completed';
