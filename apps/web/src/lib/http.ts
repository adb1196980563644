import { MESSAGES } from '@roots/contracts/messages';

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
  const message = typeof body.error === 'string' && body.error ? body.error : `Request failed with status code ${response.status}`;
  return new RequestError(message, typeof body.code === 'string' ? body.code : 'HTTP_ERROR', response.status);
}

/**
 * A write to our own origin, with a JSON body unless `body` is undefined; resolves the parsed answer
 * or throws RequestError ('Network Error' offline).
 * @example await sendJson('PUT', '/api/account/profile', profile)
 */
export async function sendJson<T>(method: 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, init: RequestInit = {}): Promise<T> {
  const payload = body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  let response: Response;
  try {
    response = await fetch(url, { method, ...payload, ...init });
  } catch {
    throw new RequestError('Network Error', 'NETWORK_ERROR', 0);
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
