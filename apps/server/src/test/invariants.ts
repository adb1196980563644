import { sql } from 'drizzle-orm';
import type { Database } from '../db/database';
import { rowsOf } from '../modules/emails/emails.repository';
import type { GatewayProxy } from './gateway-proxy';
import type { ReceivedMail } from './smtp';

export type MoneyAndMailInvariants = {
  /** Executions the gateway made (customer payments and merchant charges) = succeeded charges recorded by the product. */
  gatewayCharges: number;
  recordedCharges: number;
  doubleCharges: number;
  paymentsWithoutSubscription: number;
  emailsRecorded: number;
  emailsReceived: number;
  emailsSentTwice: number;
  emailsNotSent: number;
};

/**
 * The invariants of several instances on one database (issue 16, ADR 119), read from the database,
 * the gateway traffic the proxy saw, the customer payments the test made and the mail received:
 * every charge recorded once, no payment without its subscription, every recorded email sent once.
 */
export async function moneyAndMailInvariants(
  db: Database['db'],
  { gatewayProxy, paidExecutions, mails }: { gatewayProxy: GatewayProxy; paidExecutions: string[]; mails: ReceivedMail[] },
): Promise<MoneyAndMailInvariants> {
  const count = async (query: ReturnType<typeof sql>) => Number(rowsOf<{ n: number | string }>(await db.execute(query))[0]?.n ?? 0);
  const succeeded = rowsOf<{ execution_id: string | null; subscription_id: string; exists: boolean }>(
    await db.execute(sql`select c.execution_id, c.subscription_id, (s.id is not null) as exists
      from charges c left join subscriptions s on s.id = c.subscription_id where c.status = 'succeeded'`),
  );
  const recorded = new Set(succeeded.map((row) => row.execution_id).filter((id): id is string => id !== null));
  const withSubscription = new Set(succeeded.filter((row) => row.exists).map((row) => row.execution_id));
  const merchantCharges = gatewayProxy.charges.filter((charge) => !charge.replayed && charge.status === 'authorizeSuccessful');
  const gatewayExecutions = new Set([...paidExecutions, ...merchantCharges.map((charge) => charge.executionId)]);
  const perKey = new Map<string, number>();
  for (const charge of merchantCharges) {
    const key = charge.idempotencyKey.replace(/:retry:\d+$/, '');
    perKey.set(key, (perKey.get(key) ?? 0) + 1);
  }
  const doubleInDatabase = await count(sql`select count(*) as n from (select subscription_id, period from charges
    where status = 'succeeded' group by subscription_id, period having count(*) > 1) doubled`);
  const sentRows = rowsOf<{ to_address: string; subject: string }>(
    await db.execute(sql`select to_address, subject from emails where status = 'sent'`),
  );
  const tally = (keys: string[]) => keys.reduce((map, key) => map.set(key, (map.get(key) ?? 0) + 1), new Map<string, number>());
  const expected = tally(sentRows.map((row) => `${row.to_address}\n${row.subject}`));
  const received = tally(mails.flatMap((mail) => mail.to.map((to) => `${to}\n${mail.subject}`)));
  let sentTwice = 0;
  let notSent = 0;
  for (const key of new Set([...expected.keys(), ...received.keys()])) {
    sentTwice += Math.max(0, (received.get(key) ?? 0) - (expected.get(key) ?? 0));
    notSent += Math.max(0, (expected.get(key) ?? 0) - (received.get(key) ?? 0));
  }
  notSent += await count(sql`select count(*) as n from emails where status in ('pending', 'failed')`);
  return {
    gatewayCharges: gatewayExecutions.size,
    recordedCharges: recorded.size,
    doubleCharges: doubleInDatabase + [...perKey.values()].filter((n) => n > 1).length,
    paymentsWithoutSubscription: [...gatewayExecutions].filter((id) => !withSubscription.has(id)).length,
    emailsRecorded: sentRows.length,
    emailsReceived: mails.length,
    emailsSentTwice: sentTwice,
    emailsNotSent: notSent,
  };
}
