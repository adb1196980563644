import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** Header that carries one request's id across server → analyzer → gateway calls (and back in answers). */
export const REQUEST_ID_HEADER = 'x-request-id';

/** Longest request id taken from a caller; longer or odd ones are replaced (they end up in logs). */
const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

const storage = new AsyncLocalStorage<{ requestId: string }>();

/**
 * Fastify's `genReqId`: the caller's `x-request-id` when it is a plain token, else a new UUID, so
 * one id follows a purchase or a report through every process's log lines.
 */
export function requestIdFrom(request: { headers: Record<string, string | string[] | undefined> }): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
}

/** Runs `work` with `requestId` as the current request (outgoing calls read it with {@link currentRequestId}). */
export function runWithRequestId<T>(requestId: string, work: () => T): T {
  return storage.run({ requestId }, work);
}

/** The id of the request this code runs for (also inside work it started, e.g. an analysis after the answer). */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

/** Headers to add to an outgoing call so the next process logs the same id. */
export function requestIdHeaders(): Record<string, string> {
  const id = currentRequestId();
  return id ? { [REQUEST_ID_HEADER]: id } : {};
}
