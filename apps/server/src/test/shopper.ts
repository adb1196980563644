import { randomUUID } from 'node:crypto';
import type { Execution, SdkInitPayload, StoredInstrument, VaultTokenizeResponse } from '@roots/contracts/gateway';
import type { InitSessionResponse } from '@roots/contracts/subscriptions';

/**
 * The cookies of one simulated browser: what `http` received in `set-cookie` is sent back on its
 * next calls (name=value only; the server under test is one origin). A purchase's proof of
 * ownership lives in such a cookie (ADR 085), so each buyer in a test has its own jar.
 */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  /** The `cookie` request header, or undefined when empty. */
  header(): string | undefined {
    return this.cookies.size ? [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') : undefined;
  }

  store(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      if (at <= 0) continue;
      const name = pair.slice(0, at).trim();
      const expired = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute));
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(at + 1).trim());
    }
  }
}

/** JSON over real HTTP; with `jar`, as one browser keeping its cookies. */
export async function http<T = unknown>(
  url: string,
  init: { method?: string; json?: unknown; headers?: Record<string, string>; body?: string; jar?: CookieJar } = {},
) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  const cookie = init.jar?.header();
  if (cookie) headers.cookie = headers.cookie ? `${headers.cookie}; ${cookie}` : cookie;
  const method = init.method ?? (init.json !== undefined || init.body !== undefined ? 'POST' : 'GET');
  // As a browser does on a page of that origin: every state change names its Origin.
  if (method !== 'GET' && headers.origin === undefined) headers.origin = new URL(url).origin;
  const response = await fetch(url, {
    method,
    headers,
    ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : init.body !== undefined ? { body: init.body } : {}),
  });
  init.jar?.store(response.headers);
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
  return payInSession(await openPaymentSession(serverUrl, planId, serverHeaders), card);
}

/** The paywall's first step: the server's `/init/session` for a plan (a gateway session). */
export async function openPaymentSession(serverUrl: string, planId: string, serverHeaders: Record<string, string> = {}) {
  const init = await http<InitSessionResponse>(`${serverUrl}/init/session?plan_id=${encodeURIComponent(planId)}`, {
    headers: serverHeaders,
  });
  if (init.status !== 200) throw new Error(`init/session: ${init.status} ${init.text}`);
  return init.body;
}

/** The checkout's payment in an open session, at the gateway only: tokenize, save, authorize. */
export async function payInSession<Init extends SdkInitPayload>(init: Init, card: CardInput = { number: '4242424242424242' }) {
  const session: SdkInitPayload = init;
  const instrument = await storeCard(session, card);
  const execution = await http<Execution>(session.links.authorize, {
    headers: clientHeaders(session),
    json: {
      amount: session.amount,
      paymentComposition: [
        { paymentMethodCode: 'card', integrationType: 'api', paymentInstrumentId: instrument.id, storeInstrument: true },
      ],
    },
  });
  if (execution.status !== 200) throw new Error(`authorize: ${execution.status} ${execution.text}`);
  return { init, session, instrumentId: instrument.id, execution: execution.body };
}

/** Tokenizes a card in the vault and stores it for the session's holder, as the SDK does. */
export async function storeCard(session: SdkInitPayload, card: CardInput = { number: '4242424242424242' }): Promise<StoredInstrument> {
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
  return instrument.body;
}

/** The stored instruments a session's bearer token can list and pay with. */
export async function listInstruments(session: SdkInitPayload): Promise<StoredInstrument[]> {
  const answer = await http<{ items: StoredInstrument[] }>(session.links.instruments, { headers: clientHeaders(session) });
  if (answer.status !== 200) throw new Error(`instruments: ${answer.status} ${answer.text}`);
  return answer.body.items;
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
