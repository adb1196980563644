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

/** One vault POST from the gateway origin with the bearer token, idempotency key and the sky-metadata header. */
async function vaultPost<T>(url: string, body: unknown, context: VaultCallContext): Promise<VaultAnswer<T>> {
  let response: Response;
  try {
    response = await (context.fetch ?? fetch)(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${context.token}`,
        [GATEWAY_HEADERS.idempotencyKey]: context.idempotencyKey,
        [GATEWAY_HEADERS.clientVersion]: CHECKOUT_CLIENT_VERSION,
        [GATEWAY_HEADERS.clientType]: 'secure-fields',
        [GATEWAY_HEADERS.skyMetadata]: skyMetadata(context.userAgent),
      },
      body: JSON.stringify(body),
    });
  } catch {
    return { ok: false, error: { code: 'VAULT_CONNECTION_ERROR', message: 'Could not connect to the vault' } };
  }
  if (!response.ok) return { ok: false, error: await vaultErrorFrom(response) };
  return { ok: true, result: (await response.json()) as T };
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
