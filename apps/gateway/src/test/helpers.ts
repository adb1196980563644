import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { AuthorizeRequestInput, Execution, SdkInitPayload, StoredInstrument, VaultTokenizeResponse } from '@roots/contracts/gateway';
import { GATEWAY_HEADERS } from '@roots/contracts/gateway';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { buildGatewayApp, gatewayLoggerOptions, type GatewayApp } from '../app';
import { DEV_DEFAULT_SECRETS, loadGatewayConfig } from '../config/env';
import { migrationsFolder, openDatabase, type Database } from '../db/database';

/** Fixture dump of a freshly migrated PGlite, keyed by the migrations, shared by test workers through tmpdir. */
function fixturePath(): string {
  const folder = migrationsFolder();
  const hash = createHash('sha256');
  for (const file of readdirSync(folder)
    .filter((name) => name.endsWith('.sql'))
    .sort())
    hash.update(readFileSync(join(folder, file)));
  return join(tmpdir(), `roots-gateway-pglite-${hash.digest('hex').slice(0, 16)}.tgz`);
}

/**
 * A fresh, migrated database: a new database on the real PostgreSQL server when TEST_DATABASE_URL
 * is set (`npm test` starts one), else in-memory PGlite — from the fixture dump when one exists
 * (~1 s), else fresh (~8 s) and dumped for the next worker.
 */
export async function openTestDatabase(): Promise<Database> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const name = `gw_${process.pid}_${randomUUID().slice(0, 8)}`;
    const admin = await openDatabase({ url: serverUrl, dataDir: '' });
    await admin.db.execute(sql.raw(`create database ${name}`));
    await admin.close();
    const scoped = new URL(serverUrl);
    scoped.pathname = `/${name}`;
    const database = await openDatabase({ url: scoped.toString(), dataDir: '' });
    await database.migrate();
    return database;
  }
  const path = fixturePath();
  if (existsSync(path)) {
    const database = await openDatabase({ dataDir: 'memory://', loadDataDir: new Blob([readFileSync(path)]) });
    await database.migrate();
    return database;
  }
  const database = await openDatabase({ dataDir: 'memory://' });
  await database.migrate();
  const dump = await database.dump?.();
  if (dump) {
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, Buffer.from(await dump.arrayBuffer()));
    renameSync(temporary, path);
  }
  return database;
}

export const MERCHANT_KEY = DEV_DEFAULT_SECRETS.GATEWAY_MERCHANT_SECRET;
export const RETURN_INFO = {
  success: 'http://127.0.0.1:3000/pay/success',
  cancel: 'http://127.0.0.1:3000/pay/cancel',
  error: 'http://127.0.0.1:3000/pay/error',
  pending: 'http://127.0.0.1:3000/pay/pending',
};

export type TestGateway = {
  app: GatewayApp;
  url: string;
  /** Every log line the gateway wrote (when started with `captureLogs`). */
  logs: string[];
  close(): Promise<void>;
};

/** Starts a real gateway on 127.0.0.1, port 0, over in-memory PGlite. */
export async function startGateway(env: Record<string, string> = {}, options: { captureLogs?: boolean } = {}): Promise<TestGateway> {
  const config = loadGatewayConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: options.captureLogs ? 'trace' : 'silent',
    GATEWAY_DATA_DIR: 'memory://',
    ...env,
  });
  const logs: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(chunk.toString('utf8'));
      done();
    },
  });
  const loggerInstance = options.captureLogs ? pino(gatewayLoggerOptions('trace'), stream) : undefined;
  const database = await openTestDatabase();
  const app = await buildGatewayApp({ config, database, ...(loggerInstance ? { loggerInstance } : {}) });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  config.publicUrl = address;
  return {
    app,
    url: address,
    logs,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

export type JsonResponse<T = unknown> = { status: number; body: T; headers: Headers; text: string };

export async function call<T = unknown>(
  url: string,
  init: RequestInit & { json?: unknown; idempotencyKey?: string | false } = {},
): Promise<JsonResponse<T>> {
  const headers = new Headers(init.headers);
  if (init.json !== undefined) headers.set('content-type', 'application/json');
  const method = init.method ?? (init.json !== undefined ? 'POST' : 'GET');
  if (method !== 'GET' && init.idempotencyKey !== false && !headers.has(GATEWAY_HEADERS.idempotencyKey)) {
    headers.set(GATEWAY_HEADERS.idempotencyKey, init.idempotencyKey ?? randomUUID());
  }
  const response = await fetch(url, { ...init, method, headers, body: init.json !== undefined ? JSON.stringify(init.json) : init.body });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // HTML pages and empty bodies stay text.
  }
  return { status: response.status, body: body as T, headers: response.headers, text };
}

export function merchantHeaders(): Record<string, string> {
  return { [GATEWAY_HEADERS.merchantKey]: MERCHANT_KEY };
}

export function bearer(session: SdkInitPayload): Record<string, string> {
  return { authorization: `Bearer ${session.bearerToken}`, [GATEWAY_HEADERS.clientVersion]: '5.26.0', [GATEWAY_HEADERS.clientType]: 'web' };
}

export async function createSession(
  gateway: TestGateway,
  overrides: { amount?: number; holderReference?: string; paymentMethods?: string[] } = {},
): Promise<SdkInitPayload> {
  const response = await call<SdkInitPayload>(`${gateway.url}/merchant/v1/sessions`, {
    headers: merchantHeaders(),
    json: {
      amount: { value: overrides.amount ?? 2499, currency: 'USD' },
      holderReference: overrides.holderReference ?? `holder-${randomUUID()}`,
      ...(overrides.paymentMethods ? { paymentMethods: overrides.paymentMethods } : {}),
    },
  });
  if (response.status !== 201) throw new Error(`session: ${response.status} ${response.text}`);
  return response.body;
}

export type TestCardInput = { number: string; cvv?: string; month?: string; year?: string; name?: string };

export async function tokenize(session: SdkInitPayload, card: TestCardInput): Promise<JsonResponse<VaultTokenizeResponse>> {
  return call<VaultTokenizeResponse>(session.links.tokenize, {
    headers: bearer(session),
    json: {
      cardNumber: card.number,
      expiryMonth: card.month ?? '12',
      expiryYear: card.year ?? '2034',
      cvv: card.cvv ?? (card.number.startsWith('37') || card.number.startsWith('34') ? '7319' : '917'),
      ...(card.name ? { cardholderName: card.name } : {}),
    },
  });
}

export async function saveInstrument(session: SdkInitPayload, token: string, storeInstrument = false): Promise<StoredInstrument> {
  const response = await call<StoredInstrument>(session.links.saveInstrument, {
    headers: bearer(session),
    json: {
      holderReference: session.holderReference,
      paymentMethod: 'card',
      storeInstrument,
      data: { encryptedData: token, vaultProviderConfigId: session.vaultProviderConfigId },
    },
  });
  if (response.status !== 201) throw new Error(`save instrument: ${response.status} ${response.text}`);
  return response.body;
}

export function cardAuthorizeBody(
  session: SdkInitPayload,
  instrumentId: string,
  storeInstrument = false,
  returnInfo = RETURN_INFO,
): AuthorizeRequestInput {
  return {
    amount: session.amount,
    paymentComposition: [{ paymentMethodCode: 'card', integrationType: 'api', paymentInstrumentId: instrumentId, storeInstrument }],
    returnInfo,
    meta: { risk: { sessionId: 'risk-1' } },
  };
}

export async function authorize(
  session: SdkInitPayload,
  body: AuthorizeRequestInput,
  idempotencyKey?: string,
): Promise<JsonResponse<Execution>> {
  return call<Execution>(session.links.authorize, { headers: bearer(session), json: body, ...(idempotencyKey ? { idempotencyKey } : {}) });
}

export async function poll(session: SdkInitPayload): Promise<Execution> {
  const response = await call<Execution>(session.links.execution, { headers: bearer(session) });
  if (response.status !== 200) throw new Error(`poll: ${response.status} ${response.text}`);
  return response.body;
}

/** Session → tokenize → save instrument → authorize, as the SDK does for a card. */
export async function payByCard(
  gateway: TestGateway,
  card: TestCardInput,
  options: { amount?: number; storeInstrument?: boolean; holderReference?: string; returnInfo?: typeof RETURN_INFO } = {},
) {
  const session = await createSession(gateway, {
    ...(options.amount ? { amount: options.amount } : {}),
    ...(options.holderReference ? { holderReference: options.holderReference } : {}),
  });
  const token = await tokenize(session, card);
  if (token.status !== 201) throw new Error(`tokenize: ${token.status} ${token.text}`);
  const instrument = await saveInstrument(session, token.body.token, options.storeInstrument ?? false);
  const execution = await authorize(
    session,
    cardAuthorizeBody(session, instrument.id, options.storeInstrument ?? false, options.returnInfo),
  );
  return { session, instrument, execution };
}

/** Extracts an attribute-marked value from a hosted page. */
export function testId(html: string, id: string): string | undefined {
  return new RegExp(`data-testid="${id}"[^>]*>([^<]*)<`).exec(html)?.[1];
}

/** The message a sandbox page posts to its opener (see provider-sandbox/provider-sandbox.routes.ts). */
export function openerMessage<T = Record<string, unknown>>(html: string): T | undefined {
  const match = /var data = (\{.*\});/.exec(html);
  return match ? (JSON.parse(match[1]!) as { message: T }).message : undefined;
}

/** Posts a sandbox page form (urlencoded), as the browser does. */
export async function postForm(url: string, fields: Record<string, string>): Promise<JsonResponse<string>> {
  return call<string>(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    idempotencyKey: false,
  });
}

/** A Google-type payment token for a sandbox wallet card, taken from the sheet as the stand-in does. */
export async function googlePayToken(gateway: TestGateway, card: string, origin = 'http://127.0.0.1:3000'): Promise<string> {
  const answer = await postForm(`${gateway.url}/sandbox/google-pay/sheet`, {
    origin,
    gatewayMerchantId: 'roots-sandbox',
    card,
    action: 'pay',
  });
  const message = openerMessage<{ paymentData: { paymentMethodData: { tokenizationData: { token: string } } } }>(answer.text);
  if (!message) throw new Error(`sheet: ${answer.status} ${answer.text}`);
  return message.paymentData.paymentMethodData.tokenizationData.token;
}
