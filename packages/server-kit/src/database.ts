import { existsSync, mkdirSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock';

/** A drizzle schema module (`import * as schema from './schema'`). */
export type SchemaModule = Record<string, unknown>;

/** The one database type an app's services use, whichever driver is underneath. */
export type Db<TSchema extends SchemaModule> = PgDatabase<PgQueryResultHKT, TSchema>;

export type Database<TSchema extends SchemaModule> = {
  db: Db<TSchema>;
  kind: 'pglite' | 'postgres';
  /** Applies pending migrations; safe to call from several instances at once. */
  migrate(): Promise<void>;
  /** Resolves when a trivial query succeeds. */
  ping(): Promise<void>;
  /** PGlite only: a gzipped tarball of the data directory (test fixtures). */
  dump?: () => Promise<Blob | File>;
  close(): Promise<void>;
};

/** Where an app's database lives: what its configuration says. */
export type DatabaseLocation = {
  /** postgres:// URL; when absent an embedded PGlite database is used. */
  url?: string | undefined;
  /** Directory for the embedded database; `memory://` keeps it in memory (tests). */
  dataDir: string;
  /** In-memory PGlite only: start from this dump (`dump()`) instead of a fresh initdb (tests: ~1 s instead of ~8 s). */
  loadDataDir?: Blob | undefined;
};

/** What differs between the apps that open a database. */
export type DatabaseOwner<TSchema extends SchemaModule> = {
  schema: TSchema;
  /** The app's drizzle/ folder (read when migrating). */
  migrationsFolder: () => string;
  /** Any 64-bit key of the app's own, so every instance of one app contends for the same migration lock. */
  migrationLockKey: number;
  /**
   * Lock an embedded data directory to this process, naming this setting in the refusal (`DATA_DIR`);
   * left out, the directory is not locked.
   */
  dataDirVariable?: string;
};

/**
 * Finds an app's drizzle/ migrations folder from either its source tree or its built bundle, walking
 * up from `fromUrl` (the app's `import.meta.url`).
 * @param owner names the app in the error when none is found
 */
export function findMigrationsFolder(fromUrl: string, owner: string): string {
  let dir = dirname(fileURLToPath(fromUrl));
  for (let depth = 0; depth < 5; depth += 1) {
    const candidate = join(dir, 'drizzle');
    if (existsSync(join(candidate, 'meta', '_journal.json'))) return candidate;
    dir = dirname(dir);
  }
  throw new Error(`drizzle migrations folder not found next to the ${owner} package`);
}

/**
 * PostgreSQL settings of the embedded database. PGlite's default `shared_buffers` (128 MB) is most
 * of a bare instance's ~300 MB RSS; 16 MB is plenty for one process's working set (ADR 119).
 */
export const PGLITE_SETTINGS = ['shared_buffers=16MB'];

/** Extensions the apps' migrations may create (PostgreSQL ships them as contrib): trigram indexes for the console's search (ADR 190). */
export const PGLITE_EXTENSIONS = { pg_trgm };

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

/**
 * Opens an app's database: PostgreSQL at `location.url`, else embedded PGlite in `location.dataDir`.
 *
 * @example
 * const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR }, { schema, migrationsFolder, migrationLockKey: 42, dataDirVariable: 'DATA_DIR' });
 * await database.migrate();
 */
export async function openDatabase<TSchema extends SchemaModule>(
  location: DatabaseLocation,
  owner: DatabaseOwner<TSchema>,
): Promise<Database<TSchema>> {
  return location.url ? openPostgres(location.url, owner) : openPglite(location, owner);
}

/**
 * Binds an app's schema and settings once: its opener (`open(location)`) and its migrations folder.
 *
 * @example
 * export const { open: openDatabase, migrationsFolder } = appDatabase(schema, {
 *   fromUrl: import.meta.url, app: 'server', migrationLockKey: 4_206_201_042, dataDirVariable: 'DATA_DIR',
 * });
 */
export function appDatabase<TSchema extends SchemaModule>(
  schema: TSchema,
  options: { fromUrl: string; app: string } & Omit<DatabaseOwner<TSchema>, 'schema' | 'migrationsFolder'>,
): { open: (location: DatabaseLocation) => Promise<Database<TSchema>>; migrationsFolder: () => string } {
  const { fromUrl, app, ...rest } = options;
  const migrationsFolder = () => findMigrationsFolder(fromUrl, app);
  return { migrationsFolder, open: (location) => openDatabase(location, { ...rest, schema, migrationsFolder }) };
}

async function openPglite<TSchema extends SchemaModule>(
  { dataDir, loadDataDir }: DatabaseLocation,
  { schema, migrationsFolder, dataDirVariable }: DatabaseOwner<TSchema>,
): Promise<Database<TSchema>> {
  let client: PGlite;
  let unlock = async () => undefined as void;
  if (dataDir === 'memory://') {
    client = new PGlite({ postgresqlconf: PGLITE_SETTINGS, extensions: PGLITE_EXTENSIONS, ...(loadDataDir ? { loadDataDir } : {}) });
  } else {
    const path = resolve(dataDir, 'pglite');
    mkdirSync(path, { recursive: true });
    // One process per embedded database (PGlite itself does not lock).
    if (dataDirVariable !== undefined) unlock = await lockDataDir(path, dataDirVariable);
    await initializeDataDirApart(path);
    client = new PGlite({ dataDir: path, postgresqlconf: PGLITE_SETTINGS, extensions: PGLITE_EXTENSIONS });
  }
  await client.waitReady;
  const db = drizzlePglite({ client, schema }) as unknown as Db<TSchema>;
  return {
    db,
    kind: 'pglite',
    // PGlite is single-connection and in-process: no other instance can migrate concurrently.
    migrate: () => migratePglite(drizzlePglite({ client, schema }), { migrationsFolder: migrationsFolder() }),
    ping: async () => {
      await client.query('select 1');
    },
    dump: () => client.dumpDataDir('gzip'),
    close: async () => {
      await client.close();
      await unlock();
    },
  };
}

async function openPostgres<TSchema extends SchemaModule>(
  url: string,
  { schema, migrationsFolder, migrationLockKey }: DatabaseOwner<TSchema>,
): Promise<Database<TSchema>> {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000 });
  // An idle client that errors (server restart) must not crash the process.
  pool.on('error', () => undefined);
  const db = drizzlePg({ client: pool, schema }) as unknown as Db<TSchema>;
  return {
    db,
    kind: 'postgres',
    migrate: async () => {
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [migrationLockKey]);
        await migratePg(drizzlePg({ client, schema }), { migrationsFolder: migrationsFolder() });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [migrationLockKey]).catch(() => undefined);
        client.release();
      }
    },
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => pool.end(),
  };
}
