import { mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
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

/** The lock folder proper-lockfile makes, and the file beside it naming the process that holds it. */
const lockPath = (directory: string) => `${directory}.lock`;
const ownerPath = (directory: string) => `${directory}.lock.owner`;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether the lock on `directory` belongs to a process of this machine that no longer runs (killed
 * with -9, crashed). Only when the owner file is this lock's (written after its folder was made)
 * and names another process of this host; anything unknown counts as alive, so the lock then goes
 * stale the old way, after {@link STALE_AFTER_MS}.
 */
function ownerIsGone(directory: string): boolean {
  try {
    const owner = JSON.parse(readFileSync(ownerPath(directory), 'utf8')) as { pid?: unknown; host?: unknown };
    const lock = statSync(lockPath(directory));
    const written = statSync(ownerPath(directory));
    if (owner.host !== hostname() || typeof owner.pid !== 'number' || !Number.isSafeInteger(owner.pid) || owner.pid === process.pid)
      return false;
    // A folder made after the owner file is another process's lock (or a file system without birth times).
    if (lock.birthtimeMs === 0 || written.mtimeMs < lock.birthtimeMs) return false;
    return !isAlive(owner.pid);
  } catch {
    return false;
  }
}

/**
 * Locks an embedded database directory for this process (PGlite does not lock its own files, and
 * two processes writing one directory corrupt it). The lock is a `<dir>.lock` folder refreshed
 * every few seconds (proper-lockfile), so a crashed process's lock goes stale and the next start
 * takes it over. Beside it, `<dir>.lock.owner` names the holder (pid, host): a start right after
 * the holder was killed (kill -9) sees that process is gone and takes the lock at once, instead of
 * waiting ~15 s for it to go stale (issue 32). Resolves to the release function.
 * @param variable the setting that names the directory, for the refusal's message (`DATA_DIR`)
 * @throws DataDirLockedError when another live process holds it.
 */
export async function lockDataDir(directory: string, variable: string): Promise<() => Promise<void>> {
  mkdirSync(directory, { recursive: true });
  const acquire = () =>
    lockfile.lock(directory, {
      stale: STALE_AFTER_MS,
      realpath: false,
      // Losing the lock (the folder removed, the clock jumped) must not crash a serving process.
      onCompromised: () => undefined,
    });
  let release: () => Promise<void>;
  try {
    release = await acquire();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    if (!ownerIsGone(directory)) throw new DataDirLockedError(directory, variable);
    // Its holder is dead: date the lock back so proper-lockfile takes it over as stale now.
    utimesSync(lockPath(directory), new Date(0), new Date(0));
    try {
      release = await acquire();
    } catch (again) {
      if ((again as NodeJS.ErrnoException).code === 'ELOCKED') throw new DataDirLockedError(directory, variable);
      throw again;
    }
  }
  writeFileSync(ownerPath(directory), JSON.stringify({ pid: process.pid, host: hostname() }));
  return async () => {
    rmSync(ownerPath(directory), { force: true });
    await release();
  };
}
