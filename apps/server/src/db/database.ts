import { existsSync, mkdirSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock';
import * as schema from './schema';

export type Schema = typeof schema;
/** The one database type the services use, whichever driver is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Applies pending migrations; safe to call from several instances at once. */
  migrate(): Promise<void>;
  /** Resolves when a trivial query succeeds. */
  ping(): Promise<void>;
  close(): Promise<void>;
};

export type DatabaseOptions = {
  /** postgres:// URL; when absent an embedded PGlite database is used. */
  url?: string | undefined;
  /** Directory for the embedded database; `memory://` keeps it in memory (tests). */
  dataDir: string;
};

/** Any arbitrary 64-bit key, fixed so every instance contends for the same migration lock. */
const MIGRATION_LOCK_KEY = 4_206_201_042;

/** Finds the drizzle/ migrations folder from either the source tree or the built bundle. */
export function migrationsFolder(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 5; depth += 1) {
    const candidate = join(dir, 'drizzle');
    if (existsSync(join(candidate, 'meta', '_journal.json'))) return candidate;
    dir = dirname(dir);
  }
  throw new Error('drizzle migrations folder not found next to the server package');
}

/**
 * PostgreSQL settings of the embedded database. PGlite's default `shared_buffers` (128 MB) is most
 * of a bare instance's ~300 MB RSS; 16 MB is plenty for one process's working set (ADR 119).
 */
export const PGLITE_SETTINGS = ['shared_buffers=16MB'];

/**
 * Creates a new PGlite data directory in a short-lived child process. `initdb` runs in its own wasm
 * instance that stays in memory for the life of the process that ran it (~450 MB RSS); done apart,
 * the long-running process only ever opens an existing directory.
 */
async function initializeDataDirApart(path: string): Promise<void> {
  if (existsSync(join(path, 'PG_VERSION'))) return;
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const script = `const { PGlite } = require(${JSON.stringify(entry)});
    (async () => { const db = new PGlite(${JSON.stringify(path)}); await db.waitReady; await db.close(); })()
      .catch((error) => { console.error(error); process.exit(1); });`;
  const code = await new Promise<number | null>((done) =>
    spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'ignore', 'inherit'] }).once('exit', done),
  );
  if (code !== 0) throw new Error(`creating the embedded database in ${path} failed (exit ${code})`);
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.url ? openPostgres(options.url) : openPglite(options.dataDir);
}

async function openPglite(dataDir: string): Promise<Database> {
  let client: PGlite;
  let unlock = async () => undefined as void;
  if (dataDir === 'memory://') {
    client = new PGlite({ postgresqlconf: PGLITE_SETTINGS });
  } else {
    const path = resolve(dataDir, 'pglite');
    mkdirSync(path, { recursive: true });
    // One process per embedded database, in every mode (PGlite itself does not lock).
    unlock = await lockDataDir(path);
    await initializeDataDirApart(path);
    client = new PGlite({ dataDir: path, postgresqlconf: PGLITE_SETTINGS });
  }
  await client.waitReady;
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    // PGlite is single-connection and in-process: no other instance can migrate concurrently.
    migrate: () => migratePglite(drizzlePglite({ client, schema }), { migrationsFolder: migrationsFolder() }),
    ping: async () => {
      await client.query('select 1');
    },
    close: async () => {
      await client.close();
      await unlock();
    },
  };
}

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000 });
  // An idle client that errors (server restart) must not crash the process.
  pool.on('error', () => undefined);
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    migrate: async () => {
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        await migratePg(drizzlePg({ client, schema }), { migrationsFolder: migrationsFolder() });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
        client.release();
      }
    },
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => pool.end(),
  };
}
