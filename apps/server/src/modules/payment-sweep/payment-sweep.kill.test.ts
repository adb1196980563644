import type { ExecutionListItem } from '@roots/contracts/gateway';
import type { InitSessionResponse } from '@roots/contracts/subscriptions';
import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database';
import { charges, subscriptions, unmatchedPayments } from '../../db/schema';
import { rowsOf } from '../emails/emails.repository';
import { startGatewayProcess, type GatewayProcess } from '../../test/gateway-process';
import { openTestDatabase, realPostgres } from '../../test/helpers';
import { startServerProcess, type ServerProcess } from '../../test/server-process';
import { http, openPaymentSession, payInSession, purchaseBody } from '../../test/shopper';
import { DEV_SERVER_SECRETS } from '../../config/env';
import { GatewayClient } from '../gateway/gateway-client';
import { unmatchedRefundKey } from './payment-sweep.service';

const WEEKLY = 'roots_3d1_7d2499';
const IN_FLIGHT = 60;
/** The server dies when this many purchase requests have been sent: the rest of the buyers pay into a dead server. */
const KILL_AFTER_REQUESTS = 25;
const { url, skip } = realPostgres('the kill -9 sweep test');

/** Waits until `check` holds, polling; the test stops by itself if it never does. */
async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('condition not reached in time');
}

/**
 * Issue 17's acceptance test: kill -9 of the server with 60 purchases in flight must not leave a
 * payment without its subscription once the server is back (ADR 127). The gateway and the server
 * run as their own processes (loopback only); the server shares one PostgreSQL database across
 * its restart, as in production.
 */
describe.skipIf(skip)('kill -9 of the server with 60 purchases in flight (gateway sweep, PostgreSQL)', () => {
  let gateway: GatewayProcess;
  let database: Database;
  let databaseUrl: string;
  let merchant: GatewayClient;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    [gateway, database] = await Promise.all([startGatewayProcess(), openTestDatabase(url)]);
    const [row] = rowsOf<{ name: string }>(await database.db.execute(sql`select current_database() as name`));
    const scoped = new URL(url!);
    scoped.pathname = `/${row!.name}`;
    databaseUrl = scoped.toString();
    merchant = new GatewayClient({ baseUrl: gateway.url, merchantKey: DEV_SERVER_SECRETS.GATEWAY_MERCHANT_SECRET, timeoutMs: 10_000 });
  });
  afterAll(async () => {
    // Only the processes this test started, each by its own handle.
    await Promise.all(servers.map((server) => server.stop()));
    await gateway?.stop();
    await database?.close();
  });

  const start = async (extra: Record<string, string>) => {
    const server = await startServerProcess({
      DATABASE_URL: databaseUrl,
      GATEWAY_URL: gateway.url,
      RATE_LIMIT_PER_MINUTE: '100000',
      EMAIL_RATE_LIMIT_PER_HOUR: '100000',
      GATEWAY_SESSION_BUDGET_PER_MINUTE: '100000',
      GATEWAY_CLIENT_BUDGET_PER_MINUTE: '100000',
      GATEWAY_CLIENT_PURCHASE_BUDGET_PER_MINUTE: '100000',
      ...extra,
    });
    servers.push(server);
    return server;
  };

  /** Every execution the gateway holds (all pages of its listing). */
  const gatewayExecutions = async (): Promise<ExecutionListItem[]> => {
    const items: ExecutionListItem[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 100; page += 1) {
      const listing = await merchant.listExecutions({ since: new Date(0), cursor, limit: 200 });
      items.push(...listing.items);
      if (!listing.nextCursor) break;
      cursor = listing.nextCursor;
    }
    return items;
  };

  it('leaves 0 payments without a subscription or a refund after restart and sweep', { timeout: 300_000 }, async () => {
    const first = await start({ BILLING_SCHEDULER_ENABLED: 'false' });

    // The paywall opened for 60 buyers (each its own gateway session).
    const sessions: InitSessionResponse[] = await Promise.all(
      Array.from({ length: IN_FLIGHT }, () => openPaymentSession(first.url, WEEKLY)),
    );

    // Each pays at the gateway, then the browser asks the server for its subscription. The server is
    // killed when the 25th request goes out: requests in flight die with it, later ones find no server.
    let sent = 0;
    let killed = false;
    const outcomes = await Promise.all(
      sessions.map(async (init, index) => {
        const paid = await payInSession(init);
        sent += 1;
        if (sent === KILL_AFTER_REQUESTS && !killed) {
          killed = true;
          first.child.kill('SIGKILL');
        }
        try {
          const answer = await http(`${first.url}/subs/create-no-user`, { json: purchaseBody(paid, `buyer${index}@example.com`) });
          return answer.status === 200 ? 'subscribed' : 'refused';
        } catch {
          return 'died';
        }
      }),
    );
    expect(await first.exited).toBe(137);
    const answeredBeforeKill = outcomes.filter((outcome) => outcome === 'subscribed').length;
    const paidAtGateway = (await gatewayExecutions()).filter((item) => item.status === 'authorizeSuccessful' && !item.merchantInitiated);
    expect(paidAtGateway).toHaveLength(IN_FLIGHT);

    // Restarted on the same database, with a short tick, sweep interval and grace period.
    await start({
      BILLING_TICK_MS: '250',
      PAYMENT_SWEEP_INTERVAL_MS: '250',
      PAYMENT_SWEEP_GRACE_MS: '3000',
      PURCHASE_RECONCILE_AFTER_MS: '1000',
    });

    const subscribedExecutions = async () =>
      new Set((await database.db.select({ id: subscriptions.initialExecutionId }).from(subscriptions)).map((row) => row.id));
    const settled = async () => {
      const subscribed = await subscribedExecutions();
      const executions = (await gatewayExecutions()).filter((item) => item.status === 'authorizeSuccessful' && !item.merchantInitiated);
      const open = await database.db
        .select()
        .from(unmatchedPayments)
        .where(inArray(unmatchedPayments.status, ['waiting', 'refunding']));
      return open.length === 0 && executions.every((item) => subscribed.has(item.id) || item.amountRefunded === item.amount.value);
    };
    await until(settled, 120_000);

    // The invariants, read from the gateway and from the server's database.
    const executions = (await gatewayExecutions()).filter((item) => item.status === 'authorizeSuccessful' && !item.merchantInitiated);
    const subscribed = await subscribedExecutions();
    const refunded = executions.filter((item) => item.amountRefunded > 0);
    const paidWithoutEither = executions.filter((item) => !subscribed.has(item.id) && item.amountRefunded === 0);
    const subscribedAndRefunded = executions.filter((item) => subscribed.has(item.id) && item.amountRefunded > 0);
    expect(paidWithoutEither).toHaveLength(0);
    expect(subscribedAndRefunded).toHaveLength(0);
    expect(subscribed.size + refunded.length).toBe(IN_FLIGHT);
    for (const item of refunded) {
      expect(item.amountRefunded).toBe(item.amount.value);
      const execution = await merchant.getExecution(item.id);
      expect(execution.refunds).toHaveLength(1);
    }
    // Buyers who paid into a dead server existed: the sweep had something to refund.
    expect(refunded.length).toBeGreaterThan(0);

    const ledger = await database.db.select().from(charges);
    const perExecution = new Map<string, string[]>();
    for (const row of ledger) perExecution.set(row.executionId ?? '', [...(perExecution.get(row.executionId ?? '') ?? []), row.kind]);
    const duplicates = [...perExecution.values()].filter((kinds) => kinds.length !== 1);
    expect(duplicates).toHaveLength(0);
    expect(ledger.filter((row) => row.kind === 'first' && row.status === 'succeeded')).toHaveLength(subscribed.size);
    const refunds = ledger.filter((row) => row.kind === 'refund');
    expect(refunds.map((row) => row.idempotencyKey).sort()).toEqual(refunded.map((item) => unmatchedRefundKey(item.id)).sort());
    expect(refunds.every((row) => row.status === 'succeeded' && row.subscriptionId === null)).toBe(true);

    const swept = await database.db.select().from(unmatchedPayments);
    const completedBySweep = swept.filter((row) => row.status === 'completed').length;
    expect(swept.filter((row) => row.status === 'refunded')).toHaveLength(refunded.length);
    expect(swept.filter((row) => row.status === 'waiting' || row.status === 'refunding')).toHaveLength(0);
    console.info(
      `kill -9: ${IN_FLIGHT} in flight, ${subscribed.size} subscribed (${answeredBeforeKill} answered before the kill, ` +
        `${completedBySweep} completed by the sweep), ${refunded.length} refunded, ${paidWithoutEither.length} paid without subscription`,
    );
  });
});
