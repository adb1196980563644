/** `GET /remote-addr` (product-spec §7): the visitor's ip and country as the server sees them. */
export type RemoteAddr = { ip: string; country: string };

/** The answer of this page load, once it came. */
let known: RemoteAddr | null = null;
/** The call in flight (or settled), so the page asks once per load. */
let pending: Promise<RemoteAddr | null> | null = null;

function isRemoteAddr(value: unknown): value is RemoteAddr {
  const record = value as Record<string, unknown> | null;
  return typeof record === 'object' && record !== null && typeof record.ip === 'string' && typeof record.country === 'string';
}

/**
 * Asks the server once per page load for the visitor's ip and country, which feed the attribution
 * record's `client_ip_address` and `country_code` (product-spec §3). Never throws: a failed call
 * resolves null and the next call asks again. Zod-free on purpose: it starts with the landing (ADR 081).
 * @example void loadRemoteAddr(); // at start-up; tracking.ts reads remoteAddr() when it builds a record
 */
export function loadRemoteAddr(): Promise<RemoteAddr | null> {
  pending ??= fetch('/remote-addr', { headers: { accept: 'application/json' } })
    .then(async (response) => {
      const body: unknown = response.ok ? await response.json() : null;
      if (!isRemoteAddr(body)) throw new Error('no remote address');
      known = { ip: body.ip, country: body.country };
      return known;
    })
    .catch(() => {
      pending = null;
      return null;
    });
  return pending;
}

/** The answer of {@link loadRemoteAddr}, or null while it has not come (or failed). */
export function remoteAddr(): RemoteAddr | null {
  return known;
}

/** Forgets the answer (tests only: each test is a new page load). */
export function resetRemoteAddr(): void {
  known = null;
  pending = null;
}
