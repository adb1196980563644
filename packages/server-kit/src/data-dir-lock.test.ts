import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirLockedError } from './data-dir-lock';
import { openDatabase } from './database';

const HERE = dirname(fileURLToPath(import.meta.url));
const owner = {
  schema: {},
  migrationsFolder: () => {
    throw new Error('not migrated in this test');
  },
  migrationLockKey: 1,
  dataDirVariable: 'DATA_DIR',
};

/** A real server-like process: opens the embedded database in `dataDir`, writes a row, says ready, and stays. */
function holder(dataDir: string): { child: ChildProcess; ready: Promise<void> } {
  const script = `
    import { sql } from 'drizzle-orm';
    import { openDatabase } from './src/database.ts';
    const database = await openDatabase({ dataDir: ${JSON.stringify(dataDir)} }, ${JSON.stringify({ ...owner, migrationsFolder: undefined })});
    await database.db.execute(sql\`create table notes (body text)\`);
    await database.db.execute(sql\`insert into notes values ('written before the kill')\`);
    process.stdout.write('ready\\n');
    setInterval(() => undefined, 1_000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: join(HERE, '..'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the holder exited (${code}) before it was ready`)));
  });
  return { child, ready };
}

/**
 * Issue 32: right after a kill -9 the embedded database refused a restart for ~20 s, its lock not
 * yet stale. The lock names its holder; a dead holder's lock is taken at once, a live one's never.
 */
describe('the data directory lock after its holder was killed', () => {
  const cleanup: Array<() => void> = [];
  afterEach(() => {
    for (const step of cleanup.splice(0)) step();
  });

  it('refuses while the holder runs, and opens at once after kill -9, the data intact', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'roots-kit-kill9-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const { child, ready } = holder(dataDir);
    cleanup.push(() => child.kill('SIGKILL'));
    await ready;

    await expect(openDatabase({ dataDir }, owner)).rejects.toBeInstanceOf(DataDirLockedError);

    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    // Immediately: the holder's lock was refreshed seconds ago, far from its 15 s staleness.
    const reopened = await openDatabase({ dataDir }, owner);
    try {
      const rows = await reopened.db.execute(sql`select body from notes`);
      expect(JSON.stringify(rows)).toContain('written before the kill');
      // And this process now holds it: another opener is refused.
      await expect(openDatabase({ dataDir }, owner)).rejects.toBeInstanceOf(DataDirLockedError);
    } finally {
      await reopened.close();
    }
  }, 120_000);
});
