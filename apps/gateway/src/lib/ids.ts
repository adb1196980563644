import { randomBytes } from 'node:crypto';

/** A random, URL-safe identifier with a readable prefix, e.g. `exe_3kQ9…` (96 bits of entropy). */
export function newId(prefix: 'ses' | 'exe' | 'ins' | 'tok' | 'ref' | 'evt' | 'whd' | 'ord' | 'payer' | 'rec' | 'tkn' | 'dp'): string {
  return `${prefix}_${randomBytes(12).toString('base64url')}`;
}
