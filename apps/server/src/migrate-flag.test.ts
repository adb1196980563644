import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './db/database';
import { REPO_ROOT } from './test/gateway-process';

const dataDir = mkdtempSync(join(tmpdir(), 'roots-migrate-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

// `server.js --migrate`, the Kubernetes init step of every server pod (ops/k8s/server.yaml, ADR 178):
// the schema is migrated, nothing listens, and the process exits 0 so the pod's server may start.
describe('server --migrate', () => {
  it('migrates the database and exits without serving', { timeout: 120_000 }, async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts', '--migrate'], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', DATA_DIR: dataDir, PORT: '0', LOG_FORMAT: 'json', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      // A server that started serving would never exit by itself.
      if (output.includes('Server listening')) child.kill('SIGTERM');
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code, output).toBe(0);
    expect(output).toContain('migrations applied');
    expect(output).not.toContain('Server listening');

    const database = await openDatabase({ dataDir });
    try {
      const applied = await database.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
      expect(Number((applied as unknown as { rows: Array<{ n: number }> }).rows[0]?.n)).toBeGreaterThan(0);
      const starts = await database.db.execute(sql`select count(*)::int as n from server_starts`);
      expect(Number((starts as unknown as { rows: Array<{ n: number }> }).rows[0]?.n)).toBe(0);
    } finally {
      await database.close();
    }
  });
});
