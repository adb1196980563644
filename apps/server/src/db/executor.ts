import type { Db } from './database';

/** A transaction handle as Drizzle passes it to `db.transaction(...)`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Anything repositories can run SQL on: the database or an open transaction. */
export type Executor = Db | Tx;
