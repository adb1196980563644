import { appDatabase, type Database as DatabaseOf, type Db as DbOf } from '@roots/server-kit';
import * as schema from './schema';

/** The gateway's services' database type (its own tables, not the product's). */
export type Db = DbOf<typeof schema>;
export type Database = DatabaseOf<typeof schema>;

/**
 * The gateway's own database (ADR 134): PostgreSQL at `url`, else PGlite in `dataDir`, not locked
 * (as before). Its migration lock key differs from the server's, so the two never wait on each other.
 */
export const { open: openDatabase, migrationsFolder } = appDatabase(schema, {
  fromUrl: import.meta.url,
  app: 'gateway',
  migrationLockKey: 4_206_201_043,
});
