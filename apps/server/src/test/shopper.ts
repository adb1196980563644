import { randomUUID } from 'node:crypto';
import type { Execution, SdkInitPayload, StoredInstrument, VaultTokenizeResponse } from '@roots/contracts/gateway';
import type { InitSessionResponse } from '@roots/contracts/subscriptions';

/** JSON over real HTTP. */
export async function http<T = unknown>(
  url: string,
  init: { method?: string; json?: unknown; headers?: Record<string, string>; body?: string } = {},
) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, {
    method: init.method ?? (init.json !== undefined || init.body !== undefined ? 'POST' : 'GET'),
    headers,
    ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : init.body !== undefined ? { body: init.body } : {}),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // HTML or empty
  }
  return { status: response.status, body: body as T, text, headers: response.headers };
}

function clientHeaders(session: SdkInitPayload): Record<string, string> {
  return {
    authorization: `Bearer ${session.bearerToken}`,
    'x-client-version': '5.26.0',
    'x-client-type': 'web',
    'idempotency-key': randomUUID(),
  };
}

export type CardInput = { number: string; name?: string };

/**
 * What the checkout SDK does in the browser for a card, against the real gateway: the server's
 * `/init/session`, tokenize in the vault, save the instrument for later, authorize. Returns the
 * execution the server is then asked to turn into a subscription.
 */
export async function payWithCard(
  serverUrl: string,
  planId: string,
  card: CardInput = { number: '4242424242424242' },
  /** Extra headers of the server call (a simulated client's address or cookies). */
  serverHeaders: Record<string, string> = {},
) {
  const init = await http<InitSessionResponse>(`${serverUrl}/init/session?plan_id=${encodeURIComponent(planId)}`, {
    headers: serverHeaders,
  });
  if (init.status !== 200) throw new Error(`init/session: ${init.status} ${init.text}`);
  const session: SdkInitPayload = init.body;
  const token = await http<VaultTokenizeResponse>(session.links.tokenize, {
    headers: clientHeaders(session),
    json: {
      cardNumber: card.number,
      expiryMonth: '12',
      expiryYear: '2034',
      cvv: '123',
      ...(card.name ? { cardholderName: card.name } : {}),
    },
  });
  if (token.status !== 201) throw new Error(`tokenize: ${token.status} ${token.text}`);
  const instrument = await http<StoredInstrument>(session.links.saveInstrument, {
    headers: clientHeaders(session),
    json: {
      holderReference: session.holderReference,
      paymentMethod: 'card',
      storeInstrument: true,
      futureUsage: 'Subscription',
      data: { encryptedData: token.body.token, vaultProviderConfigId: session.vaultProviderConfigId },
    },
  });
  if (instrument.status !== 201) throw new Error(`save instrument: ${instrument.status} ${instrument.text}`);
  const execution = await http<Execution>(session.links.authorize, {
    headers: clientHeaders(session),
    json: {
      amount: session.amount,
      paymentComposition: [
        { paymentMethodCode: 'card', integrationType: 'api', paymentInstrumentId: instrument.body.id, storeInstrument: true },
      ],
    },
  });
  if (execution.status !== 200) throw new Error(`authorize: ${execution.status} ${execution.text}`);
  return { init: init.body, session, instrumentId: instrument.body.id, execution: execution.body };
}

/** A create-no-user body for a paid execution, with the disclosure the server gave. */
export function purchaseBody(paid: Awaited<ReturnType<typeof payWithCard>>, email: string, extra: Record<string, unknown> = {}) {
  return {
    plan_id: paid.init.plan_id,
    email,
    instrument: { execution_id: paid.execution.id, instrument_id: paid.instrumentId },
    consent: paid.init.disclosure,
    attribution: { project: 'roots', campaign_id: 'c1', ad_id: '', fbp: 'fb.1.2' },
    ...extra,
  };
}
