import { GatewayError } from '../../errors';

/**
 * The opaque cursor of the merchant's execution listing: the last item's change time (ms) and id,
 * base64url-encoded. A cursor the gateway did not write answers a validation error, never a 500.
 */
export function encodeListCursor(changedAt: Date, id: string): string {
  return Buffer.from(JSON.stringify([changedAt.getTime(), id])).toString('base64url');
}

export function decodeListCursor(cursor: string): { at: Date; id: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 2 ||
    typeof parsed[0] !== 'number' ||
    !Number.isSafeInteger(parsed[0]) ||
    parsed[0] < 0 ||
    typeof parsed[1] !== 'string' ||
    parsed[1].length === 0 ||
    parsed[1].length > 64
  )
    throw new GatewayError('VALIDATION_ERROR', 'cursor: not a cursor of this listing');
  return { at: new Date(parsed[0]), id: parsed[1] };
}
