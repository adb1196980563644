import { mkdirSync } from 'node:fs';
import lockfile from 'proper-lockfile';

/** A lock older than this without a refresh belongs to a process that died. */
const STALE_AFTER_MS = 15_000;

/** Another live process holds the embedded database's directory. */
export class DataDirLockedError extends Error {
  /** @param variable the setting that names the directory, for the message (`DATA_DIR`) */
  constructor(
    readonly directory: string,
    variable: string,
  ) {
    super(
      `${variable}: ${directory} is in use by another running server; an embedded database serves one process (stop it, or give this one its own ${variable})`,
    );
    this.name = 'DataDirLockedError';
  }
}

/**
 * Locks an embedded database directory for this process (PGlite does not lock its own files, and
 * two processes writing one directory corrupt it). The lock is a `<dir>.lock` folder refreshed
 * every few seconds (proper-lockfile), so a crashed process's lock goes stale and the next start
 * takes it over. Resolves to the release function.
 * @param variable the setting that names the directory, for the refusal's message (`DATA_DIR`)
 * @throws DataDirLockedError when another live process holds it.
 */
export async function lockDataDir(directory: string, variable: string): Promise<() => Promise<void>> {
  mkdirSync(directory, { recursive: true });
  try {
    return await lockfile.lock(directory, {
      stale: STALE_AFTER_MS,
      realpath: false,
      // Losing the lock (the folder removed, the clock jumped) must not crash a serving process.
      onCompromised: () => undefined,
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') throw new DataDirLockedError(directory, variable);
    throw error;
  }
}
