import {
  findMigrationsFolder,
  openDatabase as openAppDatabase,
  type Database as AppDatabase,
  type DatabaseLocation,
  type Db as AppDb,
} from '@roots/server-kit';
import * as schema from './schema';

export type Schema = typeof schema;
/** The one database type the services use, whichever driver is underneath. */
export type Db = AppDb<Schema>;
export type Database = AppDatabase<Schema>;
export type DatabaseOptions = DatabaseLocation;

/** Any arbitrary 64-bit key, fixed so every server instance contends for the same migration lock. */
const MIGRATION_LOCK_KEY = 4_206_201_042;

/** The server's drizzle/ migrations folder, from either the source tree or the built bundle. */
export const migrationsFolder = (): string => findMigrationsFolder(import.meta.url, 'server');

/** The product's database (PGlite in DATA_DIR, locked to one process in every mode, or PostgreSQL). */
export function openDatabase(options: DatabaseOptions): Promise<Database> {
  return openAppDatabase(options, { schema, migrationsFolder, migrationLockKey: MIGRATION_LOCK_KEY, dataDirVariable: 'DATA_DIR' });
}
