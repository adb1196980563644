import type {
  AuthorizeRequest,
  BinLookupResult,
  ConfirmRequest,
  Country,
  Execution,
  SaveInstrumentRequest,
  StoredInstrument,
} from '@roots/contracts/gateway';
import { CHECKOUT_CLIENT_VERSION, GATEWAY_HEADERS } from '@roots/contracts/gateway-constants';
import { CheckoutError } from '../errors/checkout-error';

export type GatewayClientOptions = {
  /** A valid bearer token (cached by the caller). */
  getToken: () => Promise<string>;
  /**
   * Called once per call answered 401/403 (session expired), with the token that was refused. A
   * token it resolves retries the call once with it (same idempotency key); undefined gives up.
   */
  onUnauthorized?: (refusedToken: string | undefined) => Promise<string | undefined> | void;
  fetch?: typeof fetch;
  /** Idempotency keys; default crypto.randomUUID. */
  newKey?: () => string;
};

/** Maps a non-ok answer to the error of checkout-spec §8. */
export async function errorFromResponse(response: Response): Promise<CheckoutError> {
  const status = response.status;
  if (status === 401 || status === 403) return new CheckoutError('UNAUTHORIZED', undefined, { status });
  if (status === 429) return new CheckoutError('TOO_MANY_REQUESTS', undefined, { status });
  let message = `Request failed with status code ${status}`;
  try {
    const body = (await response.json()) as { error?: unknown };
    if (typeof body.error === 'string') message = body.error;
  } catch {
    // not JSON: keep the generic text
  }
  return new CheckoutError('UNSUCCESSFUL_REQUEST', message, { status });
}

/**
 * The network layer of the SDK, apart from the UI (STYLE.md): every gateway client call with the
 * bearer token, an idempotency key on POSTs, and the client version and type headers.
 */
export class GatewayClient {
  private readonly fetchImpl: typeof fetch;
  private readonly newKey: () => string;

  constructor(private readonly options: GatewayClientOptions) {
    this.fetchImpl = options.fetch ?? ((...args) => globalThis.fetch(...args));
    this.newKey = options.newKey ?? (() => crypto.randomUUID());
  }

  async request<T>(url: string, init: { method?: 'GET' | 'POST'; body?: unknown; idempotencyKey?: string } = {}): Promise<T> {
    if (!url) throw new CheckoutError('API_URL_NOT_FOUND', 'The session has no link for this call');
    const method = init.method ?? (init.body === undefined ? 'GET' : 'POST');
    // One key for the call and its retry after a refresh: the gateway answers a replay, never twice.
    const idempotencyKey = method === 'POST' ? (init.idempotencyKey ?? this.newKey()) : undefined;
    const send = async (token: string): Promise<Response> => {
      const headers: Record<string, string> = {
        authorization: `Bearer ${token}`,
        [GATEWAY_HEADERS.clientVersion]: CHECKOUT_CLIENT_VERSION,
        [GATEWAY_HEADERS.clientType]: 'web',
      };
      if (idempotencyKey !== undefined) {
        headers['content-type'] = 'application/json';
        headers[GATEWAY_HEADERS.idempotencyKey] = idempotencyKey;
      }
      try {
        return await this.fetchImpl(url, { method, headers, ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }) });
      } catch (cause) {
        throw new CheckoutError('NETWORK_ERROR', undefined, { cause });
      }
    };
    const token = await this.options.getToken();
    let response = await send(token);
    if (response.status === 401 || response.status === 403) {
      const fresh = await this.options.onUnauthorized?.(token);
      if (fresh) response = await send(fresh);
    }
    if (!response.ok) throw await errorFromResponse(response);
    return (await response.json()) as T;
  }

  getExecution(url: string): Promise<Execution> {
    return this.request<Execution>(url);
  }
  authorize(url: string, body: AuthorizeRequest, idempotencyKey?: string): Promise<Execution> {
    return this.request<Execution>(url, { body, ...(idempotencyKey ? { idempotencyKey } : {}) });
  }
  confirm(url: string, body: ConfirmRequest): Promise<Execution> {
    return this.request<Execution>(url, { body });
  }
  saveInstrument(url: string | undefined, body: SaveInstrumentRequest): Promise<StoredInstrument> {
    if (!url) return Promise.reject(new CheckoutError('SAVE_INSTRUMENT_URL_NOT_AVAILABLE'));
    return this.request<StoredInstrument>(url, { body });
  }
  async listInstruments(url: string): Promise<StoredInstrument[]> {
    return (await this.request<{ items: StoredInstrument[] }>(url)).items;
  }
  binLookup(url: string, bin: string): Promise<BinLookupResult> {
    return this.request<BinLookupResult>(url, { body: { bin } });
  }
  /** Countries asset: a map by country code (checkout-spec §7). */
  async countries(url: string): Promise<Map<string, Country>> {
    let response: Response;
    try {
      response = await this.fetchImpl(url);
    } catch (cause) {
      throw new CheckoutError('NETWORK_ERROR', undefined, { cause });
    }
    if (!response.ok) {
      const error = await errorFromResponse(response);
      if (error.code === 'UNAUTHORIZED') void this.options.onUnauthorized?.(undefined);
      throw error;
    }
    const list = (await response.json()) as Country[];
    return new Map(list.map((country) => [country.code, country]));
  }
}
