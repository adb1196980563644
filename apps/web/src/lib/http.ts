import { formatMessage, MESSAGES, REQUEST_FAILURE_MESSAGES } from '@roots/contracts/messages';

/** An error answer of our server: the `{ error, code }` shape, with the HTTP status. */
export class RequestError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'RequestError';
  }
}

/** Turns a non-2xx answer into a RequestError carrying the server's user-facing `error` text. */
export async function errorFromResponse(response: Response): Promise<RequestError> {
  let body: { error?: unknown; code?: unknown } = {};
  try {
    body = (await response.json()) as typeof body;
  } catch {
    // not JSON: fall back below
  }
  const message =
    typeof body.error === 'string' && body.error
      ? body.error
      : formatMessage(REQUEST_FAILURE_MESSAGES.status, { status: String(response.status) });
  return new RequestError(message, typeof body.code === 'string' ? body.code : 'HTTP_ERROR', response.status);
}

/**
 * The RequestError of a request that got no answer (product-spec §8 generic failures): `canceled`
 * when the caller's signal aborted it, a timeout when that signal was `AbortSignal.timeout(ms)`,
 * `Request aborted` when the browser dropped it (e.g. leaving the page), else `Network Error`.
 */
export function requestFailure(reason: unknown, signal?: AbortSignal): RequestError {
  // DOMException is not an Error in every runtime: read the name as a field.
  const nameOf = (value: unknown) => (typeof value === 'object' && value !== null ? (value as { name?: unknown }).name : undefined);
  const name = nameOf(reason);
  if (name === 'TimeoutError' || (signal?.aborted && nameOf(signal.reason) === 'TimeoutError')) {
    const ms = signal && TIMEOUTS_MS.get(signal);
    return new RequestError(formatMessage(REQUEST_FAILURE_MESSAGES.timeout, { ms: String(ms ?? '') }), 'ETIMEDOUT', 0);
  }
  if (signal?.aborted) return new RequestError(REQUEST_FAILURE_MESSAGES.canceled, 'ERR_CANCELED', 0);
  if (name === 'AbortError') return new RequestError(REQUEST_FAILURE_MESSAGES.aborted, 'ECONNABORTED', 0);
  return new RequestError(REQUEST_FAILURE_MESSAGES.network, 'NETWORK_ERROR', 0);
}

const TIMEOUTS_MS = new WeakMap<AbortSignal, number>();

/**
 * A signal that times a request out after `ms`, so its failure reads `timeout of {ms}ms exceeded`.
 * Requests have no timeout unless given one (product-spec §7).
 */
export function timeoutSignal(ms: number): AbortSignal {
  const signal = AbortSignal.timeout(ms);
  TIMEOUTS_MS.set(signal, ms);
  return signal;
}

/** Refuses a URL whose scheme fetch cannot send (product-spec §8 'Unsupported protocol'). */
export function assertSupportedProtocol(url: string): void {
  const { protocol } = new URL(url, window.location.href);
  if (protocol !== 'http:' && protocol !== 'https:')
    throw new RequestError(formatMessage(REQUEST_FAILURE_MESSAGES.unsupportedProtocol, { protocol }), 'ERR_BAD_REQUEST', 0);
}

/**
 * A write to our own origin, with a JSON body unless `body` is undefined; resolves the parsed answer
 * or throws RequestError ('Network Error' offline).
 * @example await sendJson('PUT', '/api/account/profile', profile)
 */
export async function sendJson<T>(method: 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, init: RequestInit = {}): Promise<T> {
  const payload = body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  assertSupportedProtocol(url);
  let response: Response;
  try {
    response = await fetch(url, { method, ...payload, ...init });
  } catch (reason) {
    throw requestFailure(reason, init.signal ?? undefined);
  }
  if (!response.ok) throw await errorFromResponse(response);
  return (await response.json()) as T;
}

/** POST JSON to our own origin: {@link sendJson} with method POST. */
export function postJson<T>(url: string, body: unknown, init: RequestInit = {}): Promise<T> {
  return sendJson<T>('POST', url, body, init);
}

export const FALLBACK_ERROR = MESSAGES.somethingWentWrong;

/**
 * What to tell the user about a failed request: the server's `error` text, else `fallback`.
 * @example setError(errorMessage(reason)) // 'No subscriptions' from the server, 'Something went wrong' for a bug
 */
export function errorMessage(reason: unknown, fallback: string = FALLBACK_ERROR): string {
  return reason instanceof RequestError ? reason.message : fallback;
}
