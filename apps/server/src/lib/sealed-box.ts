import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A 256-bit key for one purpose, derived from the server's secret (HKDF-SHA-256). */
function keyFor(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'roots-sealed-box', purpose, 32));
}

/**
 * Seals `plaintext` with AES-256-GCM under a key derived from `secret` for `purpose`: what is at rest
 * reads as noise to anyone without the secret, and any change to it is detected when opened.
 * @example openSealed(secret, 'email', seal(secret, 'email', 'hi')) // 'hi'
 */
export function seal(secret: string, purpose: string, plaintext: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyFor(secret, purpose), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The plaintext of a {@link seal} box; undefined when it was sealed with another secret or purpose, or altered. */
export function openSealed(secret: string, purpose: string, sealed: string): string | undefined {
  const bytes = Buffer.from(sealed, 'base64url');
  if (bytes.length < IV_BYTES + TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyFor(secret, purpose), bytes.subarray(0, IV_BYTES));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
