import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database';
import { charges, purchaseIntents, subscriptions } from '../../db/schema';
import { rowsOf } from '../emails/emails.repository';
import { startGatewayProcess, type GatewayProcess } from '../../test/gateway-process';
import { GatewayProxy } from '../../test/gateway-proxy';
import { openTestDatabase, realPostgres } from '../../test/helpers';
import { startServerProcess, type ServerProcess } from '../../test/server-process';
import { http, payWithCard, purchaseBody } from '../../test/shopper';

const WEEKLY = 'roots_3d1_7d2499';
const { url, skip } = realPostgres('the fault test');

/** Waits until `check` holds, polling. */
async function until(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('condition not reached in time');
}

// Server processes share one database: this needs the real PostgreSQL that `npm test` starts.
describe.skipIf(skip)('fault: the server process dies mid-create and mid-renewal (PostgreSQL, several instances)', () => {
  let gateway: GatewayProcess;
  let proxy: GatewayProxy;
  let database: Database;
  let databaseUrl: string;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    [gateway, database] = await Promise.all([startGatewayProcess(), openTestDatabase(url)]);
    proxy = new GatewayProxy(gateway.url);
    await proxy.start();
    const [row] = rowsOf<{ name: string }>(await database.db.execute(sql`select current_database() as name`));
    const scoped = new URL(url!);
    scoped.pathname = `/${row!.name}`;
    databaseUrl = scoped.toString();
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await proxy?.stop();
    await gateway?.stop();
    await database?.close();
  });

  const serverEnv = (extra: Record<string, string> = {}) => ({
    DATABASE_URL: databaseUrl,
    GATEWAY_URL: proxy.url,
    BILLING_TICK_MS: '250',
    RATE_LIMIT_PER_MINUTE: '100000',
    GATEWAY_CLIENT_BUDGET_PER_MINUTE: '100000',
    GATEWAY_CLIENT_PURCHASE_BUDGET_PER_MINUTE: '100000',
    ...extra,
  });
  const start = async (extra: Record<string, string> = {}) => {
    const server = await startServerProcess(serverEnv(extra));
    servers.push(server);
    return server;
  };

  it('never charges twice and never keeps a payment without its subscription', async () => {
    // 1. Killed between the gateway's confirmation and the subscription insert.
    const first = await start({ FAULT_INJECTION: 'create-after-verify', BILLING_SCHEDULER_ENABLED: 'false' });
    const paid = await payWithCard(first.url, WEEKLY);
    const died = await http(`${first.url}/subs/create-no-user`, { json: purchaseBody(paid, 'crash@example.com') }).catch(
      (error: unknown) => error,
    );
    expect(died).toBeInstanceOf(Error);
    expect(await first.exited).toBe(137);
    expect(await database.db.select().from(subscriptions)).toHaveLength(0);
    // Time passes (the reconciler leaves young intents to their own request).
    await database.db.update(purchaseIntents).set({ createdAt: new Date(Date.now() - 60_000) });

    // 2. An instance that dies right after the gateway charged a renewal; it first buys five more.
    const second = await start({ FAULT_INJECTION: 'renewal-after-charge' });
    await until(async () => (await database.db.select().from(subscriptions)).length === 1);
    for (let index = 0; index < 5; index += 1) {
      const more = await payWithCard(second.url, WEEKLY);
      expect((await http(`${second.url}/subs/create-no-user`, { json: purchaseBody(more, `more${index}@example.com`) })).status).toBe(200);
    }
    const all = await database.db.select().from(subscriptions);
    expect(all).toHaveLength(6);
    await database.db.update(subscriptions).set({ dueAt: new Date(Date.now() - 1_000) });
    expect(await second.exited).toBe(137);
    const pending = await database.db.select().from(charges).where(eq(charges.status, 'pending'));
    expect(pending).toHaveLength(1);
    // The dead instance's claims lapse.
    await database.db.update(subscriptions).set({ leaseUntil: null });

    // 3. Two healthy instances restart on the same database and finish everything.
    await Promise.all([start(), start()]);
    const ids = all.map((row) => row.id);
    await until(async () =>
      (await database.db.select().from(subscriptions).where(inArray(subscriptions.id, ids))).every((row) => row.currentPeriod === 1),
    );

    const renewals = proxy.charges.filter((record) => record.idempotencyKey.includes(':period:1'));
    const executed = proxy.distinctCharges((record) => record.idempotencyKey.includes(':period:1'));
    const succeeded = (await database.db.select().from(charges)).filter((charge) => charge.period === 1 && charge.status === 'succeeded');
    const intents = await database.db.select().from(purchaseIntents);
    const orphans = intents.filter((intent) => intent.state !== 'completed' || !intent.subscriptionId);
    console.info(
      `[fault] subscriptions ${all.length}; renewal calls to the gateway ${renewals.length} (replayed ${renewals.filter((r) => r.replayed).length}); ` +
        `renewal executions ${executed.size}; succeeded renewal rows ${succeeded.length}; paid payments without subscription ${orphans.length}`,
    );
    expect(executed.size).toBe(6);
    expect(succeeded).toHaveLength(6);
    expect(new Set(succeeded.map((charge) => charge.subscriptionId)).size).toBe(6);
    expect(renewals.filter((record) => record.replayed).length).toBeGreaterThanOrEqual(1);
    expect(orphans).toHaveLength(0);
    const crashed = all.find((row) => row.initialExecutionId === paid.execution.id);
    expect(crashed?.email).toBe('crash@example.com');
  }, 150_000);
});
