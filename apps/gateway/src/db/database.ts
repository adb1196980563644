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

/** The gateway's own key (the server's is …042), so every gateway instance contends for the same migration lock. */
const MIGRATION_LOCK_KEY = 4_206_201_043;

/** The gateway's drizzle/ migrations folder, from either the source tree or the built bundle. */
export const migrationsFolder = (): string => findMigrationsFolder(import.meta.url, 'gateway');

/** The gateway's own database (PGlite in GATEWAY_DATA_DIR, or PostgreSQL), same shape as the server's. */
export function openDatabase(options: DatabaseOptions): Promise<Database> {
  return openAppDatabase(options, { schema, migrationsFolder, migrationLockKey: MIGRATION_LOCK_KEY });
}
