import type { PlanCatalog } from '@roots/contracts';
import type { ApiError } from '@roots/contracts/errors';
import { formatMessage, MESSAGES, REQUEST_FAILURE_MESSAGES } from '@roots/contracts/messages';
import type { z } from 'zod';

/**
 * The web app's one client of its own server. Every call goes through {@link request}: same-origin,
 * JSON in and out, errors as {@link RequestError} with the server's `{ error, code }`. Answer types
 * come from the contracts (type-only imports add no bytes); a zod schema parses the answer where the
 * screen already ships zod.
 */

/** An error answer of our server: the `{ error, code }` shape, with the HTTP status (0: no answer). */
export class RequestError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
    /** The error answer's JSON body, when it had one (e.g. a group photo's `faces`, ADR 192). */
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'RequestError';
  }
}

/**
 * The RequestError of a request that got no answer (product-spec §8 generic failures): `canceled`
 * when the caller's signal aborted it, a timeout when that signal was {@link timeoutSignal}'s,
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

/** A RequestError from a status and the raw answer text: the server's `error` text when it sent one. */
function errorFrom(status: number, text: string): RequestError {
  let body: Partial<ApiError> = {};
  try {
    body = JSON.parse(text) as Partial<ApiError>;
  } catch {
    // not JSON: fall back below
  }
  const message =
    typeof body.error === 'string' && body.error ? body.error : formatMessage(REQUEST_FAILURE_MESSAGES.status, { status: String(status) });
  return new RequestError(message, typeof body.code === 'string' ? body.code : 'HTTP_ERROR', status, body);
}

/** Turns a non-2xx answer into a RequestError carrying the server's user-facing `error` text. */
export async function errorFromResponse(response: Response): Promise<RequestError> {
  return errorFrom(response.status, await response.text().catch(() => ''));
}

const nameOfReason = (value: unknown) => (typeof value === 'object' && value !== null ? (value as { name?: unknown }).name : undefined);

export type RequestOptions = { method?: 'GET' | 'POST' | 'PUT' | 'DELETE'; body?: unknown; signal?: AbortSignal | undefined };

/**
 * The raw answer of a same-origin call with a JSON body (when `body` is given); throws RequestError on
 * a non-2xx answer or no answer (an aborted call rethrows its abort).
 * @example const response = await request('/pdf-report/content', { method: 'POST', body: { report_id } });
 */
export async function request(url: string, { method = 'GET', body, signal }: RequestOptions = {}): Promise<Response> {
  assertSupportedProtocol(url);
  const send = async (proof?: string): Promise<Response> => {
    const headers: Record<string, string> = {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(proof === undefined ? {} : { [CHECKOUT_PROOF_HEADER]: proof }),
    };
    try {
      return await fetch(url, {
        method,
        ...(Object.keys(headers).length > 0 ? { headers } : {}),
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: signal ?? null,
        // A configured subscription service on another origin gets the purchase proof and session cookies too.
        ...(new URL(url, window.location.href).origin === window.location.origin ? {} : { credentials: 'include' as const }),
      });
    } catch (reason) {
      // A read the screen no longer wants keeps its abort (callers ignore those); writes say why they failed.
      if (method === 'GET' && signal?.aborted && nameOfReason(signal.reason) !== 'TimeoutError') throw reason;
      throw requestFailure(reason, signal);
    }
  };
  let response = await send();
  // Under pressure the checkout asks this browser for a small proof of work (ADR 160): solved once,
  // the same request goes again with it (and the pass it buys serves the checkout's next calls).
  const challenge = response.status === 429 ? await challengeOf(response) : undefined;
  if (challenge !== undefined) response = await send(await solveCheckoutChallenge(challenge));
  if (!response.ok) throw await errorFromResponse(response);
  return response;
}

/** The header a solved checkout challenge goes in (the server's `CHECKOUT_PROOF_HEADER`). */
const CHECKOUT_PROOF_HEADER = 'x-checkout-proof';

/** The challenge of a 429 CHALLENGE_REQUIRED answer (read from a clone: the answer stays readable). */
async function challengeOf(response: Response): Promise<unknown> {
  try {
    const answer = (await response.clone().json()) as { code?: unknown; challenge?: unknown };
    return answer.code === 'CHALLENGE_REQUIRED' && answer.challenge ? answer.challenge : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Solves an ALTCHA challenge in this browser (WebCrypto PBKDF2, about half a second on a phone) and
 * answers the proof the server checks: the challenge and its solution, base64 JSON. The solver is
 * loaded only when a challenge comes, so the checkout's first paint carries none of it.
 */
async function solveCheckoutChallenge(challenge: unknown): Promise<string> {
  const [{ solveChallenge }, { deriveKey }] = await Promise.all([import('altcha-lib'), import('altcha-lib/algorithms/web/pbkdf2')]);
  const solution = await solveChallenge({ challenge: challenge as Parameters<typeof solveChallenge>[0]['challenge'], deriveKey });
  return btoa(JSON.stringify({ challenge, solution }));
}

/**
 * A write to our own origin, with a JSON body unless `body` is undefined; resolves the parsed answer.
 * @example await sendJson<ProfileResponse>('PUT', '/api/account/profile', profile)
 */
export async function sendJson<T>(
  method: 'POST' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
  init: { signal?: AbortSignal } = {},
): Promise<T> {
  return (await (await request(url, { method, body, signal: init.signal })).json()) as T;
}

/** PUT or DELETE to our own origin, the answer parsed with its contract schema. */
export async function sendParsed<T extends z.ZodType>(
  method: 'PUT' | 'DELETE',
  url: string,
  body: unknown,
  schema: T,
): Promise<z.infer<T>> {
  return schema.parse(await sendJson<unknown>(method, url, body));
}

/** POST JSON to our own origin: {@link sendJson} with method POST. */
export function postJson<T>(url: string, body: unknown, init: { signal?: AbortSignal } = {}): Promise<T> {
  return sendJson<T>('POST', url, body, init);
}

/** GET a JSON resource of our origin and parse it with its contract schema. */
export async function getJson<T extends z.ZodType>(url: string, schema: T, signal?: AbortSignal): Promise<z.infer<T>> {
  return schema.parse(await (await request(url, { signal })).json());
}

/** POST JSON to our origin and parse the answer with its contract schema. */
export async function postParsed<T extends z.ZodType>(url: string, body: unknown, schema: T, signal?: AbortSignal): Promise<z.infer<T>> {
  return schema.parse(await postJson<unknown>(url, body, signal ? { signal } : {}));
}

/**
 * GET /api/plans: the configured catalog, for the paywall and the offers page. Not parsed with its
 * schema on purpose: the paywall's first paint carries no zod (ADR 081).
 */
export async function getPlans(signal?: AbortSignal): Promise<PlanCatalog> {
  return (await (await request('/api/plans', { signal })).json()) as PlanCatalog;
}

/**
 * POST a file as the raw body, reporting upload progress 0..1 (fetch cannot report it, so this one
 * call uses XMLHttpRequest); resolves the JSON answer, errors as every other call.
 * @example await uploadWithProgress<FaceCheckOk>('/api/face-check', photo, setProgress)
 */
export function uploadWithProgress<T>(url: string, file: Blob, onUploadProgress: (fraction: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('content-type', file.type || 'application/octet-stream');
    xhr.upload.onprogress = (event) => event.lengthComputable && onUploadProgress(event.loaded / event.total);
    xhr.onerror = () => reject(new RequestError(REQUEST_FAILURE_MESSAGES.network, 'NETWORK_ERROR', 0));
    xhr.onabort = () => reject(new RequestError(REQUEST_FAILURE_MESSAGES.aborted, 'ECONNABORTED', 0));
    xhr.onload = () => {
      if (xhr.status < 200 || xhr.status >= 300) return reject(errorFrom(xhr.status, xhr.responseText));
      try {
        resolve(JSON.parse(xhr.responseText) as T);
      } catch {
        reject(errorFrom(xhr.status, xhr.responseText));
      }
    };
    xhr.send(file);
  });
}

export const FALLBACK_ERROR = MESSAGES.somethingWentWrong;

/**
 * What to tell the user about a failed request: the server's `error` text, else `fallback`.
 * @example setError(errorMessage(reason)) // 'No subscriptions' from the server, 'Something went wrong' for a bug
 */
export function errorMessage(reason: unknown, fallback: string = FALLBACK_ERROR): string {
  return reason instanceof RequestError ? reason.message : fallback;
}
