import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RootsApp } from '../app';
import { openDatabase, type Database } from '../db/database';
import { rowsOf } from '../modules/emails/emails.repository';
import { buildTestApp, openTestDatabase, realPostgres } from '../test/helpers';

const { url, skip } = realPostgres('the shared-limits test');

// Two app instances, each with its own connection pool, on one PostgreSQL database: the limits are
// counted once for both (ADR 116). Needs the real PostgreSQL that `npm test` starts.
describe.skipIf(skip)('limits shared by two instances on one PostgreSQL', () => {
  let first: { app: RootsApp; database: Database };
  let second: { app: RootsApp; database: Database };

  beforeAll(async () => {
    const firstDatabase = await openTestDatabase(url);
    const [row] = rowsOf<{ name: string }>(await firstDatabase.db.execute(sql`select current_database() as name`));
    const scoped = new URL(url!);
    scoped.pathname = `/${row!.name}`;
    const secondDatabase = await openDatabase({ url: scoped.toString(), dataDir: '' });
    const env = { RATE_LIMIT_PER_MINUTE: '10', EMAIL_RATE_LIMIT_PER_HOUR: '3' };
    first = { app: await buildTestApp({ env, database: firstDatabase }), database: firstDatabase };
    second = { app: await buildTestApp({ env, database: secondDatabase }), database: secondDatabase };
  });
  afterAll(async () => {
    for (const instance of [first, second]) {
      await instance?.app.close();
      await instance?.database.close();
    }
  });

  const instances = () => [first.app, second.app];

  it('answers 429 on the 11th request per IP across both instances, not the 21st', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 12; index += 1) {
      const app = instances()[index % 2]!;
      const answer = await app.inject({ method: 'GET', url: '/remote-addr', remoteAddress: '203.0.113.7' });
      statuses.push(answer.statusCode);
    }
    expect(statuses.slice(0, 10)).toEqual(Array.from({ length: 10 }, () => 200));
    expect(statuses.slice(10)).toEqual([429, 429]);
    // Another address has its own window on either instance.
    expect((await second.app.inject({ method: 'GET', url: '/remote-addr', remoteAddress: '203.0.113.8' })).statusCode).not.toBe(429);
  });

  it('answers 429 on the 4th lookup of one email across both instances', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 4; index += 1) {
      const app = instances()[index % 2]!;
      const answer = await app.inject({
        method: 'POST',
        url: '/rec/subscriptions/limited%40example.com',
        remoteAddress: `198.51.100.${index + 1}`,
      });
      statuses.push(answer.statusCode);
    }
    // 'Check your email' whatever the email bought (ADR 085) until the limit, then 429 whichever instance answers.
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
