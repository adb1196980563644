import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SdkInitPayload } from '@roots/contracts/gateway';
import type { VaultRecordsRequestInput, VaultRecordsResponse } from '@roots/contracts/gateway-vault-records';
import { bearer, call, createSession, merchantHeaders, startGateway, type TestGateway } from '../../test/helpers';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(async () => gateway.close());

const recordsURL = (session: SdkInitPayload) => `${session.vaultURL}/v1/records`;
const store = (session: SdkInitPayload, body: VaultRecordsRequestInput, headers: Record<string, string> = {}) =>
  call<VaultRecordsResponse>(recordsURL(session), { headers: { ...bearer(session), ...headers }, json: body });

describe('vault records (the non-card collect elements)', () => {
  it('stores each field encrypted and answers a token per field, never the values', async () => {
    const session = await createSession(gateway);
    const answer = await store(session, { records: [{ table: 'persons', fields: { name: 'Ada Lovelace', pin: '4821' } }] });
    expect(answer.status).toBe(201);
    const [record] = answer.body.records;
    expect(record).toMatchObject({ table: 'persons', skyflowID: expect.stringMatching(/^rec_/) });
    expect(Object.keys(record!.fields!)).toEqual(['name', 'pin']);
    expect(Object.values(record!.fields!).every((token) => /^tkn_/.test(token))).toBe(true);
    expect(answer.text).not.toContain('Ada Lovelace');
    expect(answer.text).not.toContain('4821');
    const stored = await gateway.app.gateway.database.db.execute(
      sql`select fields::text as fields from vault_records where id = ${record!.skyflowID}`,
    );
    const text = JSON.stringify(stored);
    expect(text).not.toContain('Ada Lovelace');
    expect(text).not.toContain('4821');
    expect(await gateway.app.gateway.records.reveal(record!.skyflowID)).toEqual({
      table: 'persons',
      holderReference: session.holderReference,
      fields: { name: 'Ada Lovelace', pin: '4821' },
    });
  });

  it('the merchant’s server reads a record back (detokenize) for its holder only; a browser token cannot', async () => {
    const session = await createSession(gateway);
    const stored = await store(session, { records: [{ table: 'persons', fields: { email: 'ada@example.com' } }] });
    const id = stored.body.records[0]!.skyflowID;
    const read = (holder: string, headers = merchantHeaders()) =>
      call(`${gateway.url}/merchant/v1/records/${id}?holderReference=${encodeURIComponent(holder)}`, { headers });
    const answer = await read(session.holderReference);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ skyflowID: id, table: 'persons', fields: { email: 'ada@example.com' } });
    expect((await read('someone-else')).status).toBe(404);
    expect((await read(session.holderReference, bearer(session))).status).toBe(401);
  });

  it('tokens: false answers only the record ids', async () => {
    const session = await createSession(gateway);
    const answer = await store(session, { tokens: false, records: [{ table: 'persons', fields: { name: 'Grace' } }] });
    expect(answer.body.records[0]).toEqual({ table: 'persons', skyflowID: expect.stringMatching(/^rec_/) });
  });

  it('upsert updates the shopper’s record with the same column value; another shopper gets their own', async () => {
    const session = await createSession(gateway, { holderReference: 'holder-upsert' });
    const upsert = [{ table: 'persons', column: 'email' }];
    const first = await store(session, { upsert, records: [{ table: 'persons', fields: { email: 'ada@example.com', name: 'Ada' } }] });
    const second = await store(session, { upsert, records: [{ table: 'persons', fields: { email: 'ada@example.com', phone: '555' } }] });
    expect(second.body.records[0]!.skyflowID).toBe(first.body.records[0]!.skyflowID);
    expect((await gateway.app.gateway.records.reveal(first.body.records[0]!.skyflowID))?.fields).toEqual({
      email: 'ada@example.com',
      name: 'Ada',
      phone: '555',
    });
    const other = await createSession(gateway, { holderReference: 'holder-other' });
    const theirs = await store(other, { upsert, records: [{ table: 'persons', fields: { email: 'ada@example.com' } }] });
    expect(theirs.body.records[0]!.skyflowID).not.toBe(first.body.records[0]!.skyflowID);
    const missingColumn = await store(session, { upsert, records: [{ table: 'persons', fields: { name: 'x' } }] });
    expect(missingColumn.status).toBe(400);
  });

  it('a skyflowID updates that record, only for its own holder and table', async () => {
    const session = await createSession(gateway);
    const created = await store(session, { records: [{ table: 'persons', fields: { name: 'Ada' } }] });
    const id = created.body.records[0]!.skyflowID;
    const updated = await store(session, { records: [{ table: 'persons', skyflowID: id, fields: { name: 'Ada King' } }] });
    expect(updated.body.records[0]!.skyflowID).toBe(id);
    expect((await gateway.app.gateway.records.reveal(id))?.fields.name).toBe('Ada King');
    const stranger = await createSession(gateway);
    expect((await store(stranger, { records: [{ table: 'persons', skyflowID: id, fields: { name: 'x' } }] })).status).toBe(404);
    expect((await store(session, { records: [{ table: 'cards', skyflowID: id, fields: { name: 'x' } }] })).status).toBe(404);
  });

  it('refuses malformed records, calls without an idempotency key, and any origin but the gateway’s', async () => {
    const session = await createSession(gateway);
    expect((await store(session, { records: [{ table: 'drop table', fields: { a: '1' } }] })).status).toBe(400);
    expect((await store(session, { records: [{ table: 't', fields: {} }] })).status).toBe(400);
    expect((await store(session, { records: [] })).status).toBe(400);
    const noKey = await call(recordsURL(session), {
      headers: bearer(session),
      json: { records: [{ table: 't', fields: { a: '1' } }] },
      idempotencyKey: false,
    });
    expect(noKey.status).toBe(400);
    const fromMerchant = await store(session, { records: [{ table: 't', fields: { a: '1' } }] }, { origin: 'http://localhost:3000' });
    expect(fromMerchant.status).toBe(403);
    const noToken = await call(recordsURL(session), { json: { records: [{ table: 't', fields: { a: '1' } }] } });
    expect(noToken.status).toBe(401);
  });
});
