import type { VaultTokenizeRequest, VaultTokenizeResponse } from '@roots/contracts/gateway';
import type { VaultRecordsRequestInput, VaultRecordsResponse } from '@roots/contracts/gateway-vault-records';
import { CHECKOUT_CLIENT_VERSION, GATEWAY_HEADERS } from '@roots/contracts/gateway-constants';

/** Vault SDK version the spec names (checkout-spec §9). */
export const VAULT_SDK_VERSION = '1.30.1';

export type VaultError = {
  code: 'VAULT_NETWORK_ERROR' | 'VAULT_CONNECTION_ERROR' | 'INVALID_BEARER_TOKEN';
  message: string;
  status?: number;
};

/** tablet, mobile or desktop, from the user agent. */
export function deviceModel(userAgent: string): 'tablet' | 'mobile' | 'desktop' {
  if (/iPad|Tablet|Android(?!.*Mobile)/i.test(userAgent)) return 'tablet';
  if (/Mobi|iPhone|Android/i.test(userAgent)) return 'mobile';
  return 'desktop';
}

/** The sky-metadata header (checkout-spec §7). ASCII only. */
export function skyMetadata(userAgent: string): string {
  const os = /\(([^)]*)\)/.exec(userAgent)?.[1] ?? 'unknown';
  return JSON.stringify({
    sdk_name_version: `roots-secure-fields@${VAULT_SDK_VERSION}`,
    sdk_client_device_model: deviceModel(userAgent),
    sdk_os_version: os,
    sdk_runtime_details: `web; checkout ${CHECKOUT_CLIENT_VERSION}`,
  }).replace(/[^\x20-\x7e]/g, '');
}

/** Error description: the server's message plus ' - requestId: {id}' when the header exists (checkout-spec §8). */
export async function vaultErrorFrom(response: Response): Promise<VaultError> {
  const requestId = response.headers.get(GATEWAY_HEADERS.requestId);
  let message = `Vault request failed with status ${response.status}`;
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { error?: unknown };
    if (typeof body.error === 'string') message = body.error;
  } catch {
    if (text && !/^\s*</.test(text) && text.length < 200) message = text;
  }
  if (requestId) message += ` - requestId: ${requestId}`;
  const code = response.status === 401 || response.status === 403 ? 'INVALID_BEARER_TOKEN' : 'VAULT_NETWORK_ERROR';
  return { code, message, status: response.status };
}

export type VaultCallContext = { token: string; idempotencyKey: string; userAgent: string; fetch?: typeof fetch };
export type VaultAnswer<T> = { ok: true; result: T } | { ok: false; error: VaultError };

/** Body encodings a vault request may use (checkout-spec §7 "Vault requests"). */
export type VaultContentType = 'application/json' | 'application/x-www-form-urlencoded' | 'multipart/form-data';

/** Nested fields as bracketed keys (`card[number]`, `items[0]`), the usual form encoding of an object. */
export function formEntries(value: unknown, prefix = ''): Array<[string, string]> {
  if (value === null || value === undefined) return [];
  if (typeof value !== 'object') return prefix ? [[prefix, String(value)]] : [];
  return Object.entries(value).flatMap(([key, inner]) => formEntries(inner, prefix ? `${prefix}[${key}]` : key));
}

/** The body in the caller's encoding; multipart lets fetch write the content type with its boundary. */
function encodeBody(body: unknown, contentType: VaultContentType): { body: string | FormData; header?: string } {
  switch (contentType) {
    case 'application/json':
      return { body: JSON.stringify(body), header: contentType };
    case 'application/x-www-form-urlencoded':
      return { body: new URLSearchParams(formEntries(body)).toString(), header: contentType };
    case 'multipart/form-data': {
      const form = new FormData();
      for (const [key, value] of formEntries(body)) form.append(key, value);
      return { body: form };
    }
  }
}

/** A vault request as its caller asks: method, URL and body encoding (default POST and JSON). */
export type VaultRequest = { url: string; body: unknown; method?: 'POST' | 'PUT' | 'PATCH'; contentType?: VaultContentType };

/**
 * One vault request from the gateway origin with the bearer token, idempotency key and the
 * sky-metadata header, its body encoded as the caller asks; the answer is parsed as JSON when its
 * content type is JSON, else kept as text.
 * @example await vaultRequest({ url, body: { records }, contentType: 'application/x-www-form-urlencoded' }, context)
 */
export async function vaultRequest<T>(request: VaultRequest, context: VaultCallContext): Promise<VaultAnswer<T>> {
  const encoded = encodeBody(request.body, request.contentType ?? 'application/json');
  let response: Response;
  try {
    response = await (context.fetch ?? fetch)(request.url, {
      method: request.method ?? 'POST',
      headers: {
        ...(encoded.header ? { 'content-type': encoded.header } : {}),
        authorization: `Bearer ${context.token}`,
        [GATEWAY_HEADERS.idempotencyKey]: context.idempotencyKey,
        [GATEWAY_HEADERS.clientVersion]: CHECKOUT_CLIENT_VERSION,
        [GATEWAY_HEADERS.clientType]: 'secure-fields',
        [GATEWAY_HEADERS.skyMetadata]: skyMetadata(context.userAgent),
      },
      body: encoded.body,
    });
  } catch {
    return { ok: false, error: { code: 'VAULT_CONNECTION_ERROR', message: 'Could not connect to the vault' } };
  }
  if (!response.ok) return { ok: false, error: await vaultErrorFrom(response) };
  const json = /[/+]json\b/i.test(response.headers.get('content-type') ?? '');
  return { ok: true, result: (json ? await response.json() : await response.text()) as T };
}

function vaultPost<T>(url: string, body: unknown, context: VaultCallContext): Promise<VaultAnswer<T>> {
  return vaultRequest<T>({ url, body }, context);
}

/** POSTs card data to the vault from the gateway origin; answers the vault token, never the card. */
export function tokenize(url: string, body: VaultTokenizeRequest, context: VaultCallContext): Promise<VaultAnswer<VaultTokenizeResponse>> {
  return vaultPost<VaultTokenizeResponse>(url, body, context);
}

/** POSTs the other elements' values as records; answers their ids and tokens. */
export function storeRecords(
  url: string,
  body: VaultRecordsRequestInput,
  context: VaultCallContext,
): Promise<VaultAnswer<VaultRecordsResponse>> {
  return vaultPost<VaultRecordsResponse>(url, body, context);
}
