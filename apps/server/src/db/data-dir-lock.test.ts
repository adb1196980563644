import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../test/server-process';
import { DataDirLockedError } from '@roots/server-kit';
import { openDatabase } from './database';

describe('one process per embedded database directory', () => {
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.stop();
  });

  it('refuses a second opener of a DATA_DIR a running server holds, naming DATA_DIR, and frees it when that server stops', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'roots-lock-'));
    server = await startServerProcess({ DATA_DIR: dataDir, BILLING_SCHEDULER_ENABLED: 'false' });
    const second = openDatabase({ dataDir });
    await expect(second).rejects.toBeInstanceOf(DataDirLockedError);
    await expect(second).rejects.toThrow(/^DATA_DIR: .*roots-lock-.* is in use by another running server/);
    await server.stop();
    server = undefined;
    const afterStop = await openDatabase({ dataDir });
    await afterStop.ping();
    // Held in this process now: a second open here is refused too (every mode, tests included).
    await expect(openDatabase({ dataDir })).rejects.toBeInstanceOf(DataDirLockedError);
    await afterStop.close();
    const again = await openDatabase({ dataDir });
    await again.close();
  }, 120_000);
});
