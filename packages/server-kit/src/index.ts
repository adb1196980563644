export { DataDirLockedError, lockDataDir } from './data-dir-lock';
export {
  appDatabase,
  findMigrationsFolder,
  openDatabase,
  PGLITE_EXTENSIONS,
  PGLITE_SETTINGS,
  type Database,
  type DatabaseLocation,
  type DatabaseOwner,
  type Db,
  type SchemaModule,
} from './database';
export { registerOpenApi, type OpenApiOptions } from './openapi';
export { sharedSecretProblems, weakSecretProblem } from './secret-strength';
export { commaSeparated } from './env-values';
export { repeatingPass, type RepeatingPass, type RepeatingPassOptions } from './repeating-pass';
