import { WEBHOOK_TOLERANCE_SECONDS } from './gateway-constants';

/**
 * Verifies a gateway webhook signature (`roots-signature: t=<unix seconds>,v1=<hex>`, where
 * hex = HMAC-SHA256(secret, "<t>.<raw body>")). Web Crypto only, so it runs in Node 20 and
 * browsers alike; import it as `@roots/contracts/gateway-webhooks`.
 *
 * @param rawBody the request body exactly as received (not re-serialised JSON)
 * @param nowSeconds current Unix time in seconds (injectable for tests)
 * @param toleranceSeconds maximum age/skew of the timestamp; default {@link WEBHOOK_TOLERANCE_SECONDS} (300)
 * @example
 *   const ok = await verifyGatewayWebhook(env.GATEWAY_WEBHOOK_SECRET, rawBody, request.headers['roots-signature'], Date.now() / 1000);
 */
export async function verifyGatewayWebhook(
  secret: string,
  rawBody: string,
  header: string | undefined,
  nowSeconds: number,
  toleranceSeconds = WEBHOOK_TOLERANCE_SECONDS,
): Promise<boolean> {
  if (!header) return false;
  const parts = new Map(header.split(',').map((part) => [part.slice(0, part.indexOf('=')), part.slice(part.indexOf('=') + 1)] as const));
  const timestamp = Number(parts.get('t'));
  const given = parts.get('v1') ?? '';
  if (!Number.isInteger(timestamp) || !/^[0-9a-f]{64}$/.test(given)) return false;
  if (Math.abs(Math.floor(nowSeconds) - timestamp) > toleranceSeconds) return false;
  const encoder = new TextEncoder();
  const key = await globalThis.crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', key, encoder.encode(`${timestamp}.${rawBody}`)));
  const expected = Array.from(mac, (byte) => byte.toString(16).padStart(2, '0')).join('');
  // Constant-time comparison of two equal-length hex strings.
  let difference = 0;
  for (let index = 0; index < expected.length; index += 1) difference |= expected.charCodeAt(index) ^ given.charCodeAt(index);
  return difference === 0;
}
