import { CheckoutError } from '../errors/checkout-error';

/** Reads the `exp` claim (seconds) of a JWT without verifying it; undefined when unreadable. */
export function tokenExpirySeconds(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const json = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown };
    return typeof json.exp === 'number' ? json.exp : undefined;
  } catch {
    return undefined;
  }
}

/** A bearer token is valid if it is a string whose expiry claim has not passed (checkout-spec §5). */
export function isBearerTokenValid(token: unknown, nowMs: number): token is string {
  if (typeof token !== 'string' || token === '') return false;
  const exp = tokenExpirySeconds(token);
  return exp !== undefined && exp * 1000 > nowMs;
}

export type BearerTokenCacheOptions = {
  /** The merchant's callback. */
  getBearerToken: () => Promise<string | undefined> | string | undefined;
  /** Logs a refresh failure (checkout-spec §4: "a refresh-failed error is logged"). */
  logError: (error: CheckoutError) => void;
  now?: () => number;
};

/**
 * Caches the merchant's bearer token while its `exp` claim lies ahead; otherwise asks the callback
 * again. Concurrent callers share one pending request.
 *
 * @example
 * const tokens = new BearerTokenCache({ getBearerToken: () => fetchToken(), logError: console.error });
 * const token = await tokens.get();
 */
export class BearerTokenCache {
  private token: string | undefined;
  private pending: Promise<string> | undefined;
  private readonly now: () => number;

  constructor(private readonly options: BearerTokenCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Seeds the cache (e.g. with the token of the init session). Ignored when not valid. */
  seed(token: string): void {
    if (isBearerTokenValid(token, this.now())) this.token = token;
  }

  /** A valid token: the cached one, or a fresh one from the callback. */
  async get(): Promise<string> {
    if (isBearerTokenValid(this.token, this.now())) return this.token;
    this.pending ??= this.fetch().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  /**
   * Session expired (a 401/403): drops the cached token and asks the callback again. A callback that
   * returns nothing or throws logs SESSION_REFRESH_FAILED and resolves undefined. With the refused
   * token, a newer one already cached is answered instead (concurrent 401s refresh once).
   */
  async refresh(refused?: string): Promise<string | undefined> {
    // Another call already replaced the refused token: use that one, no second callback.
    if (refused !== undefined && this.token !== undefined && this.token !== refused && isBearerTokenValid(this.token, this.now()))
      return this.token;
    this.token = undefined;
    try {
      return await this.get();
    } catch (cause) {
      this.options.logError(new CheckoutError('SESSION_REFRESH_FAILED', 'Session refresh failed', { cause }));
      return undefined;
    }
  }

  private async fetch(): Promise<string> {
    let token: unknown;
    try {
      token = await this.options.getBearerToken();
    } catch (cause) {
      throw new CheckoutError('INVALID_BEARER_TOKEN', 'getBearerToken failed', { cause });
    }
    if (!isBearerTokenValid(token, this.now()))
      throw new CheckoutError('INVALID_BEARER_TOKEN', 'getBearerToken returned no valid, unexpired token');
    this.token = token;
    return token;
  }
}
