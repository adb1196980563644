/** Text rules every part shares: what no stored text may hold. */

/** PostgreSQL refuses NUL in `text` columns: a request holding one is refused before it gets there. */
const NUL = '\u0000';
/** Deeper nesting than any of our schemas has; past it the value is refused rather than walked. */
const MAX_DEPTH = 32;

/** Bytes rather than text: a Buffer, a typed array or view, an ArrayBuffer. */
function isBinary(value: object): boolean {
  return (
    ArrayBuffer.isView(value) ||
    value instanceof ArrayBuffer ||
    (typeof SharedArrayBuffer !== 'undefined' && value instanceof SharedArrayBuffer)
  );
}

/**
 * Where the first string (or key) holding a NUL is, as a dotted path; undefined when there is none.
 * @example findNul({ email: 'a\u0000@b.co' }) // 'email'
 */
export function findNul(value: unknown, path = '', depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes(NUL) ? path || '(root)' : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  // Binary bodies (a photo's bytes) are not text: walking a Buffer entry by entry froze the event
  // loop for seconds per megabyte (issue 22). They never reach a text column.
  if (isBinary(value)) return undefined;
  if (depth > MAX_DEPTH) return path || '(root)';
  for (const [key, item] of Object.entries(value)) {
    if (key.includes(NUL)) return path ? `${path}.${key.replaceAll(NUL, '\\0')}` : key.replaceAll(NUL, '\\0');
    const found = findNul(item, path ? `${path}.${key}` : key, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Where a request holds a NUL: the first of params, query or body that does, with the path in it;
 * undefined when none does. The message both apps answer with a 400.
 */
export function nulInRequest(request: { params: unknown; query: unknown; body: unknown }): string | undefined {
  for (const [part, value] of [
    ['params', request.params],
    ['querystring', request.query],
    ['body', request.body],
  ] as const) {
    const path = findNul(value);
    if (path !== undefined) return `Invalid ${part}: ${path}: must not contain a NUL character`;
  }
  return undefined;
}
