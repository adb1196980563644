/**
 * The few gateway wire constants the frames need at runtime. Copied from
 * @roots/contracts/gateway because importing that module pulls zod (~470 KB) into every frame;
 * wire-constants.test.ts proves the copies equal the contracts.
 */
export const HEADER_IDEMPOTENCY_KEY = 'idempotency-key';
export const HEADER_CLIENT_VERSION = 'x-client-version';
export const HEADER_CLIENT_TYPE = 'x-client-type';
export const HEADER_SKY_METADATA = 'sky-metadata';
export const HEADER_REQUEST_ID = 'x-request-id';
export const CLIENT_VERSION = '5.26.0';
