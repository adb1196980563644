import { appDatabase, type Database as DatabaseOf, type Db as DbOf } from '@roots/server-kit';
import * as schema from './schema';

/** The one database type the services use, whichever driver is underneath. */
export type Db = DbOf<typeof schema>;
export type Database = DatabaseOf<typeof schema>;

/**
 * The product's database: PostgreSQL at `url`, else PGlite in `dataDir`, locked to one process in
 * every mode (ADR 134). The lock key is any 64-bit number of the server's own.
 */
export const { open: openDatabase, migrationsFolder } = appDatabase(schema, {
  fromUrl: import.meta.url,
  app: 'server',
  migrationLockKey: 4_206_201_042,
  dataDirVariable: 'DATA_DIR',
});
