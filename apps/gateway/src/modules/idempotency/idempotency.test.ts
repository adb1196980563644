import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database';
import { openTestDatabase } from '../../test/helpers';
import { Idempotency, IDEMPOTENCY_STALE_AFTER_MS } from './idempotency';
import { IdempotencyRepository } from './idempotency.repository';

let database: Database;
let idempotency: Idempotency;

beforeAll(async () => {
  database = await openTestDatabase();
  idempotency = new Idempotency(new IdempotencyRepository(database.db), (value) => `h:${value.length}:${value}`);
});
afterAll(async () => database.close());

describe('idempotency', () => {
  it('proceeds once, refuses a concurrent repeat, then replays the stored answer', async () => {
    expect(await idempotency.begin('s1', 'k1', 'hash-a')).toEqual({ kind: 'proceed' });
    await expect(idempotency.begin('s1', 'k1', 'hash-a')).rejects.toMatchObject({ code: 'IDEMPOTENCY_REQUEST_IN_PROGRESS' });
    await idempotency.finish('s1', 'k1', 201, '{"ok":true}');
    expect(await idempotency.begin('s1', 'k1', 'hash-a')).toEqual({ kind: 'replay', statusCode: 201, body: '{"ok":true}' });
  });

  it('refuses the same key with a different request', async () => {
    await idempotency.begin('s1', 'k2', 'hash-a');
    await idempotency.finish('s1', 'k2', 200, '{}');
    await expect(idempotency.begin('s1', 'k2', 'hash-b')).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', statusCode: 422 });
  });

  it('scopes keys per credential', async () => {
    expect(await idempotency.begin('s2', 'k1', 'hash-z')).toEqual({ kind: 'proceed' });
  });

  it('forgets 5xx answers so a retry runs again, and stores 4xx ones', async () => {
    await idempotency.begin('s1', 'k3', 'hash-a');
    await idempotency.finish('s1', 'k3', 500, '{"code":"INTERNAL_ERROR"}');
    expect(await idempotency.begin('s1', 'k3', 'hash-a')).toEqual({ kind: 'proceed' });
    await idempotency.finish('s1', 'k3', 422, '{"code":"CARD_INVALID"}');
    expect(await idempotency.begin('s1', 'k3', 'hash-a')).toMatchObject({ kind: 'replay', statusCode: 422 });
  });

  it('takes over an in-progress record whose request died', async () => {
    await idempotency.begin('s1', 'k4', 'hash-a');
    const later = new Date(Date.now() + IDEMPOTENCY_STALE_AFTER_MS + 1_000);
    expect(await idempotency.begin('s1', 'k4', 'hash-a', later)).toEqual({ kind: 'proceed' });
  });

  it('fingerprints method, route, params and body', () => {
    const base = { method: 'POST', route: '/v1/x/:id', params: { id: '1' }, body: { a: 1 } };
    expect(idempotency.fingerprint(base)).toBe(idempotency.fingerprint({ ...base }));
    expect(idempotency.fingerprint(base)).not.toBe(idempotency.fingerprint({ ...base, params: { id: '2' } }));
    expect(idempotency.fingerprint(base)).not.toBe(idempotency.fingerprint({ ...base, body: { a: 2 } }));
  });
});
