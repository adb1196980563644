import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { PGLITE_EXTENSIONS } from '@roots/server-kit';
import { describe, expect, it } from 'vitest';
import { migrationsFolder } from './database';

const PARENT = '11111111-1111-4111-8111-111111111111';
const ADD_ON = '22222222-2222-4222-8222-222222222222';
const ORPHAN_ADD_ON = '33333333-3333-4333-8333-333333333333';

/** The migrations folder as it stood before the ledger (0000–0003). */
function foldersBeforeLedger(): string {
  const dir = mkdtempSync(join(tmpdir(), 'roots-migrations-'));
  cpSync(migrationsFolder(), dir, { recursive: true });
  const journalPath = join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: Array<{ tag: string }> };
  journal.entries = journal.entries.filter((entry) => entry.tag < '0004');
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

describe('migration 0004: the charge ledger carries the old rows over', () => {
  it('renames kinds, fills plan and parent from the subscriptions, and turns refunds into ledger rows', async () => {
    // The later migrations create the extensions the embedded database loads (pg_trgm, ADR 190).
    const client = new PGlite({ extensions: PGLITE_EXTENSIONS });
    const db = drizzle({ client });
    await migrate(db, { migrationsFolder: foldersBeforeLedger() });
    const subscription = (id: string, planId: string, parent: string | null) =>
      `insert into subscriptions (id, email, plan_id, status, parent_id, initial_execution_id, holder_reference, current_period_start,
        terms_text, terms_version, consent_at, consent_ip, consent_user_agent, created_at, updated_at)
       values ('${id}', 'a@example.com', '${planId}', 'active', ${parent ? `'${parent}'` : 'null'}, 'exe_${id.slice(0, 4)}', 'h', now(),
        't', 'v', now(), '127.0.0.1', 'ua', now(), now())`;
    await client.exec(subscription(PARENT, 'roots_3m4800_3m4999', null));
    await client.exec(subscription(ADD_ON, 'roots_ultimate_pack_4999_otp', PARENT));
    const charge = (id: string, subscriptionId: string, key: string, kind: string, status: string) =>
      `insert into charges (id, subscription_id, period, attempt, idempotency_key, amount_minor, currency, status, kind, execution_id, created_at, updated_at)
       values ('${id}', '${subscriptionId}', 0, 0, '${key}', 4800, 'USD', '${status}', '${kind}', ${status === 'succeeded' ? "'exe_1'" : 'null'}, now(), now())`;
    await client.exec(charge('aaaaaaaa-0000-4000-8000-000000000001', PARENT, 'execution:exe_1', 'initial', 'succeeded'));
    await client.exec(
      charge('aaaaaaaa-0000-4000-8000-000000000002', ADD_ON, `addon:${PARENT}:roots_ultimate_pack_4999_otp`, 'addon', 'succeeded'),
    );
    // An add-on charged by a process that died before its subscription row.
    await client.exec(
      charge('aaaaaaaa-0000-4000-8000-000000000003', ORPHAN_ADD_ON, `addon:${PARENT}:roots_profile_pro_otp`, 'addon', 'pending'),
    );
    await client.exec(
      `insert into refunds (id, charge_id, subscription_id, amount_minor, gateway_refund_id, created_at)
       values ('bbbbbbbb-0000-4000-8000-000000000001', 'aaaaaaaa-0000-4000-8000-000000000001', '${PARENT}', 4800, 'rf_1', now())`,
    );

    await migrate(db, { migrationsFolder: migrationsFolder() });
    const rows = await client.query<Record<string, unknown>>(
      `select id, kind, subscription_id, parent_subscription_id, plan_id, status, refund_of_charge_id, idempotency_key, execution_id, gateway_refund_id
       from charges order by id`,
    );
    expect(rows.rows).toEqual([
      expect.objectContaining({ kind: 'first', plan_id: 'roots_3m4800_3m4999', parent_subscription_id: null }),
      expect.objectContaining({ kind: 'add-on', plan_id: 'roots_ultimate_pack_4999_otp', parent_subscription_id: PARENT }),
      expect.objectContaining({ kind: 'add-on', plan_id: 'roots_profile_pro_otp', parent_subscription_id: PARENT, status: 'pending' }),
      expect.objectContaining({
        id: 'bbbbbbbb-0000-4000-8000-000000000001',
        kind: 'refund',
        subscription_id: PARENT,
        plan_id: 'roots_3m4800_3m4999',
        status: 'succeeded',
        refund_of_charge_id: 'aaaaaaaa-0000-4000-8000-000000000001',
        idempotency_key: 'refund:aaaaaaaa-0000-4000-8000-000000000001',
        execution_id: 'exe_1',
        gateway_refund_id: 'rf_1',
      }),
    ]);
    const tables = await client.query<{ name: string }>(
      `select table_name as name from information_schema.tables where table_name = 'refunds'`,
    );
    expect(tables.rows).toEqual([]);
    await client.close();
  });
});
