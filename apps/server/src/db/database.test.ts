import { describe, expect, it } from 'vitest';
import { serverStarts } from './schema';
import { openTestDatabase, testDatabases } from '../test/helpers';

describe.each(testDatabases())('database on $name', ({ url }) => {
  it('applies the one migration set, idempotently, and stores rows', async () => {
    const database = await openTestDatabase(url);
    await database.migrate();
    await Promise.all([database.migrate(), database.migrate()]);
    await database.db.insert(serverStarts).values({ version: '0.42.12', productSlug: 'roots' });
    const rows = await database.db.select().from(serverStarts);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ version: '0.42.12', productSlug: 'roots' });
    expect(rows[0]!.startedAt).toBeInstanceOf(Date);
    await database.close();
  });
});
