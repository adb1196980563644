import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { DataDirLockedError } from './data-dir-lock';
import { findMigrationsFolder, openDatabase } from './database';

const notes = pgTable('notes', { id: integer('id').primaryKey(), body: text('body').notNull() });
const schema = { notes };
const noMigrations = () => {
  throw new Error('not migrated in this test');
};

describe('findMigrationsFolder', () => {
  it("finds an app's drizzle/ folder walking up from its source file", () => {
    const fromServerSource = pathToFileURL(join(process.cwd(), 'apps/server/src/db/database.ts')).href;
    expect(findMigrationsFolder(fromServerSource, 'server')).toBe(join(process.cwd(), 'apps/server/drizzle'));
  });

  it('names the app when there is none', () => {
    const nowhere = pathToFileURL(join(mkdtempSync(join(tmpdir(), 'roots-kit-')), 'a/b/c.js')).href;
    expect(() => findMigrationsFolder(nowhere, 'gateway')).toThrow('drizzle migrations folder not found next to the gateway package');
  });
});

describe('openDatabase (embedded)', () => {
  it('starts an in-memory database from another one’s dump', async () => {
    const first = await openDatabase({ dataDir: 'memory://' }, { schema, migrationsFolder: noMigrations, migrationLockKey: 1 });
    expect(first.kind).toBe('pglite');
    await first.db.execute('create table notes (id integer primary key, body text not null)');
    await first.db.insert(notes).values({ id: 1, body: 'kept' });
    const dump = await first.dump!();
    await first.close();

    const second = await openDatabase(
      { dataDir: 'memory://', loadDataDir: dump },
      { schema, migrationsFolder: noMigrations, migrationLockKey: 1 },
    );
    expect(await second.db.select().from(notes)).toEqual([{ id: 1, body: 'kept' }]);
    await second.ping();
    await second.close();
  }, 60_000);

  it('locks a data directory to one opener when the owner names its setting, in its words', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'roots-kit-lock-'));
    const owner = { schema, migrationsFolder: noMigrations, migrationLockKey: 1, dataDirVariable: 'SOME_DATA_DIR' };
    const held = await openDatabase({ dataDir }, owner);
    const second = openDatabase({ dataDir }, owner);
    await expect(second).rejects.toBeInstanceOf(DataDirLockedError);
    await expect(second).rejects.toThrow(/^SOME_DATA_DIR: .*roots-kit-lock-.* is in use by another running server/);
    await held.close();
    const after = await openDatabase({ dataDir }, owner);
    await after.close();
  }, 60_000);
});
