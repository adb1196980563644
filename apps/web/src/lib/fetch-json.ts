import type { z } from 'zod';
import { assertSupportedProtocol, errorFromResponse, postJson, requestFailure } from './http';

/** GET a JSON resource of our origin and parse it with its contract schema; throws RequestError. */
export async function getJson<T extends z.ZodType>(url: string, schema: T, signal?: AbortSignal): Promise<z.infer<T>> {
  assertSupportedProtocol(url);
  let response: Response;
  try {
    response = await fetch(url, { signal: signal ?? null });
  } catch (reason) {
    // A load the screen no longer wants keeps its abort: callers ignore those.
    if (signal?.aborted) throw reason;
    throw requestFailure(reason);
  }
  if (!response.ok) throw await errorFromResponse(response);
  return schema.parse(await response.json());
}

/** POST JSON to our origin and parse the answer with its contract schema; throws RequestError. */
export async function postParsed<T extends z.ZodType>(url: string, body: unknown, schema: T, signal?: AbortSignal): Promise<z.infer<T>> {
  return schema.parse(await postJson<unknown>(url, body, signal ? { signal } : {}));
}
