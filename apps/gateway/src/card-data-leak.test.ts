import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_CARDS } from './modules/test-cards/test-cards';
import { adyenEnv } from './modules/processors/adyen/testing/adyen-env';
import { startPrism, type PrismMock } from './modules/processors/adyen/testing/prism';
import {
  bearer,
  call,
  cardAuthorizeBody,
  createSession,
  merchantHeaders,
  poll,
  saveInstrument,
  startGateway,
  testId,
  type TestGateway,
} from './test/helpers';

/**
 * After a run with known test numbers, no card number, CVV or expiry appears in clear in any log
 * line, response body or database row. CVVs and the expiry are distinctive so a scan cannot
 * confuse them with timestamps or ids.
 */
const CVV_3 = '917';
const CVV_4 = '7319';
const EXPIRY = { month: '11', year: '2037' };

let gateway: TestGateway;
const responses: string[] = [];
/** 3-D Secure challenge pages fetched and scanned, by card number. */
const challengePages: string[] = [];

async function record<T>(promise: Promise<{ text: string } & T>): Promise<{ text: string } & T> {
  const result = await promise;
  responses.push(result.text);
  return result;
}

/** Adyen's test card, paid with through the Adyen processor (below). */
const ADYEN_CARD = '4111111111111111';

function sensitiveNeedles(): string[] {
  const numbers = [...TEST_CARDS.map((card) => card.number), ADYEN_CARD];
  return [
    ...numbers,
    ...numbers.map((number) => number.replace(/(\d{4})(?=\d)/g, '$1 ')),
    `"${CVV_3}"`,
    `"${CVV_4}"`,
    `${EXPIRY.month}/${EXPIRY.year.slice(2)}`,
    `${EXPIRY.month}/${EXPIRY.year}`,
    `"${EXPIRY.year}"`,
    `${EXPIRY.year}-${EXPIRY.month}`,
  ];
}

/** Field names that would mean card data was written as such. */
const SENSITIVE_KEYS = /"(cardNumber|cvv|cvc|securityCode|expiryMonth|expiryYear|expiry|number)"\s*:\s*"?[^"[]/i;

function leaks(texts: string[]): string[] {
  const needles = sensitiveNeedles();
  return texts.flatMap((text) => [
    ...needles.filter((needle) => text.includes(needle)).map((needle) => `${needle} in ${text.slice(0, 200)}`),
    ...(SENSITIVE_KEYS.test(text) && !text.includes('[Redacted]') ? [`sensitive key in ${text.slice(0, 200)}`] : []),
  ]);
}

beforeAll(async () => {
  gateway = await startGateway({ GATEWAY_SLOW_AUTH_POLLS: '1' }, { captureLogs: true });
  for (const card of TEST_CARDS) {
    const session = await createSession(gateway);
    const cvv = card.network === 'amex' ? CVV_4 : CVV_3;
    const token = await record(
      call<{ token: string }>(session.links.tokenize, {
        headers: bearer(session),
        json: {
          cardNumber: card.number.replace(/(\d{4})(?=\d)/g, '$1 '),
          expiryMonth: EXPIRY.month,
          expiryYear: EXPIRY.year,
          cvv,
          cardholderName: 'Ada Lovelace',
        },
      }),
    );
    const instrument = await saveInstrument(session, token.body.token, true);
    const execution = await record(
      call<{ links: { threeDS?: { href: string } } }>(session.links.authorize, {
        headers: bearer(session),
        json: cardAuthorizeBody(session, instrument.id, true),
      }),
    );
    const threeDs = execution.body.links.threeDS?.href;
    if (threeDs) {
      challengePages.push(card.number);
      const page = await record(call(threeDs));
      await record(
        call(`${gateway.url}/3ds/${session.executionId}`, {
          method: 'POST',
          body: new URLSearchParams({
            t: new URL(threeDs).searchParams.get('t') ?? '',
            action: 'submit',
            code: testId(page.text, 'otp-hint') ?? '',
          }),
        }),
      );
    }
    responses.push(JSON.stringify(await poll(session)));
    responses.push(JSON.stringify(await poll(session)));
    await record(
      call(`${gateway.url}/merchant/v1/charges`, {
        headers: merchantHeaders(),
        json: { instrumentId: instrument.id, holderReference: session.holderReference, amount: { value: 500, currency: 'USD' } },
      }),
    );
  }
  // Rejected card data must not be echoed either.
  const session = await createSession(gateway);
  await record(
    call(session.links.tokenize, {
      headers: bearer(session),
      json: { cardNumber: '4242424242424241', expiryMonth: EXPIRY.month, expiryYear: EXPIRY.year, cvv: CVV_3 },
    }),
  );
  await record(
    call(session.links.tokenize, {
      headers: bearer(session),
      json: { cardNumber: '4000000000000002', expiryMonth: '13', expiryYear: EXPIRY.year, cvv: CVV_3 },
    }),
  );
  await record(call(session.links.tokenize, { headers: bearer(session), json: { cardNumber: 4242424242424242, cvv: Number(CVV_3) } }));
  await record(
    call(session.links.tokenize, {
      method: 'POST',
      headers: { ...bearer(session), 'content-type': 'application/json' },
      body: `{"cardNumber":"4242424242424242","cvv":"${CVV_3}","expiryYear":"${EXPIRY.year}"`,
    }),
  );
  await record(
    call(session.links.tokenize, {
      headers: { ...bearer(session), origin: 'http://127.0.0.1:3000' },
      json: { cardNumber: '4242424242424242', cvv: CVV_3 },
    }),
  );
  const fetched = await record(
    call(`${gateway.url}/merchant/v1/holders/${session.holderReference}/instruments`, { headers: merchantHeaders() }),
  );
  expect(fetched.status).toBe(200);
});
afterAll(async () => gateway.close());

describe('no card data in clear', () => {
  it('ran the flows (sanity)', () => {
    expect(responses.length).toBeGreaterThan(TEST_CARDS.length * 4);
    // Every challenge card went through its 3-D Secure page, so those pages are in the scan too.
    const challengeCards = TEST_CARDS.filter((card) => card.scenario.kind === 'challenge').map((card) => card.number);
    expect(challengeCards.length).toBeGreaterThan(0);
    expect(challengePages).toEqual(challengeCards);
    expect(gateway.logs.length).toBeGreaterThan(TEST_CARDS.length * 4);
    expect(gateway.logs.some((line) => line.includes('"url":"/vault/v1/tokens"'))).toBe(true);
  });

  it('the scanner finds planted card data', () => {
    expect(leaks(['{"pan":"4242 4242 4242 4242"}'])).toHaveLength(1);
    expect(leaks([`{"x":"${CVV_3}"}`, `exp ${EXPIRY.month}/${EXPIRY.year.slice(2)}`, '{"cvv":"000"}'])).toHaveLength(3);
  });

  it('in any response body', () => {
    expect(leaks(responses)).toEqual([]);
  });

  it('in any log line', () => {
    expect(leaks(gateway.logs)).toEqual([]);
  });

  it('in any row of any table', async () => {
    const { db } = gateway.app.gateway.database;
    const tables = await db.execute<{ table_schema: string; table_name: string }>(
      sql`select table_schema, table_name from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema') and table_type = 'BASE TABLE'`,
    );
    const tableRows = (tables as unknown as { rows: Array<{ table_schema: string; table_name: string }> }).rows;
    expect(tableRows.map((table) => table.table_name)).toEqual(
      expect.arrayContaining(['instruments', 'vault_tokens', 'executions', 'idempotency_records', 'webhook_deliveries']),
    );
    const dumps: string[] = [];
    for (const table of tableRows) {
      const result = await db.execute(sql.raw(`select * from "${table.table_schema}"."${table.table_name}"`));
      for (const row of (result as unknown as { rows: unknown[] }).rows) dumps.push(JSON.stringify(row));
    }
    expect(dumps.length).toBeGreaterThan(TEST_CARDS.length * 3);
    expect(leaks(dumps)).toEqual([]);
    // The ciphertext is there, and it is not the card.
    expect(dumps.some((row) => /"encrypted_card":"v1\./.test(row))).toBe(true);
  });
});

/** Every row of every table of a gateway, one JSON line each. */
async function dumpTables(target: TestGateway): Promise<string[]> {
  const { db } = target.app.gateway.database;
  const tables = await db.execute<{ table_schema: string; table_name: string }>(
    sql`select table_schema, table_name from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema') and table_type = 'BASE TABLE'`,
  );
  const dumps: string[] = [];
  for (const table of (tables as unknown as { rows: Array<{ table_schema: string; table_name: string }> }).rows) {
    const result = await db.execute(sql.raw(`select * from "${table.table_schema}"."${table.table_name}"`));
    for (const row of (result as unknown as { rows: unknown[] }).rows) dumps.push(JSON.stringify(row));
  }
  return dumps;
}

/**
 * The same scan with GATEWAY_PROCESSOR=adyen against Prism on Adyen's definition: the card leaves
 * the vault only in the request body to Adyen. Every path that logs is taken (success, 3-D Secure,
 * refused, unmappable, Adyen's 422, timeouts): no card data in a log line, an answer, a metric or a row.
 */
describe('no card data in clear with the Adyen processor', () => {
  let prism: PrismMock;
  let adyen: TestGateway;
  const answers: string[] = [];

  beforeAll(async () => {
    prism = await startPrism();
    adyen = await startGateway(adyenEnv(prism.url, { ADYEN_TIMEOUT_MS: '1000' }), { captureLogs: true });
    const refused = (answer: Record<string, unknown>) => ({
      ...answer,
      resultCode: 'Refused',
      refusalReason: 'Expired Card',
      refusalReasonCode: '6',
    });
    prism.plan(
      '/payments',
      {},
      { prefer: 'example=card-3d-secure-redirect' },
      { replace: refused },
      { replace: (answer) => ({ ...answer, resultCode: 'IdentifyShopper' }) },
      { prefer: 'code=422' },
      { drop: true },
      { drop: true },
      { drop: true },
    );
    for (let payment = 0; payment < 8; payment += 1) {
      const session = await createSession(adyen);
      const token = await call<{ token: string }>(session.links.tokenize, {
        headers: bearer(session),
        json: { cardNumber: ADYEN_CARD, expiryMonth: EXPIRY.month, expiryYear: EXPIRY.year, cvv: CVV_3, cardholderName: 'Ada Lovelace' },
      });
      answers.push(token.text);
      const instrument = await saveInstrument(session, token.body.token, true);
      const execution = await call<{ links: { threeDS?: { href: string } } }>(session.links.authorize, {
        headers: bearer(session),
        json: cardAuthorizeBody(session, instrument.id, true),
      });
      answers.push(execution.text);
      const threeDs = execution.body.links.threeDS?.href;
      if (threeDs) {
        // The challenge page sends the browser on to the issuer (Adyen's URL): not followed, no network.
        const forward = await fetch(threeDs, { redirect: 'manual' });
        answers.push(`${forward.status} ${forward.headers.get('location') ?? ''} ${await forward.text()}`);
        answers.push(
          (await call(`${adyen.url}/3ds/${session.executionId}/return?t=${new URL(threeDs).searchParams.get('t')}&redirectResult=abc`))
            .text,
        );
      }
      answers.push(JSON.stringify(await poll(session)));
    }
    answers.push((await call(`${adyen.url}/metrics`)).text);
  }, 180_000);

  afterAll(async () => {
    await adyen?.close();
    await prism?.stop();
  });

  it('sent the card to Adyen (sanity): the scan has something to find', () => {
    const first = prism.seen.find((entry) => entry.path === '/payments');
    expect(JSON.stringify(first?.body)).toContain(ADYEN_CARD);
    expect(leaks([JSON.stringify(first?.body)]).length).toBeGreaterThan(0);
    expect(adyen.logs.some((line) => line.includes('Adyen refused the request'))).toBe(true);
    expect(adyen.logs.some((line) => line.includes('Adyen answer not mappable'))).toBe(true);
    expect(adyen.logs.some((line) => line.includes('retrying with the same idempotency key'))).toBe(true);
  });

  it('in any log line, answer, metric or row', async () => {
    expect(leaks(adyen.logs)).toEqual([]);
    expect(leaks(answers)).toEqual([]);
    const rows = await dumpTables(adyen);
    expect(rows.some((row) => row.includes('"processor":{'))).toBe(true);
    expect(leaks(rows)).toEqual([]);
  });
});
