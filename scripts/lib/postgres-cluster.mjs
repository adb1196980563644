// A throw-away PostgreSQL cluster on loopback for the repository-level tests.
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { postgresBinDir } from './system-packages.mjs';

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function postgresUser() {
  const result = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  return result.status === 0
    ? { uid: Number(result.stdout.trim()), gid: Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim()) }
    : null;
}

/**
 * Starts a fresh cluster (initdb + pg_ctl) in a temp dir. PostgreSQL refuses to run as root, so as
 * root it runs as the `postgres` user that Debian's package creates.
 * @returns { url, stop }
 */
export async function startPostgresCluster() {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL server binaries not found (apt-get install -y postgresql)');
  const dir = mkdtempSync(join(tmpdir(), 'roots-pg-'));
  const dataDir = join(dir, 'data');
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? postgresUser() : null;
  if (asRoot && !owner) throw new Error('running as root but there is no postgres user to run PostgreSQL');
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const exec = (args) => {
    const result = spawnSync(args[0], args.slice(1), { encoding: 'utf8', ...(owner ? { uid: owner.uid, gid: owner.gid } : {}), cwd: dir });
    if (result.status !== 0) throw new Error(`${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
  };
  exec([`${bin}/initdb`, '-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  exec([
    `${bin}/pg_ctl`,
    '-D',
    dataDir,
    '-l',
    join(dir, 'postgres.log'),
    '-w',
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
    'start',
  ]);
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      if (stopped) return;
      stopped = true;
      spawnSync(`${bin}/pg_ctl`, ['-D', dataDir, '-m', 'immediate', 'stop'], {
        ...(owner ? { uid: owner.uid, gid: owner.gid } : {}),
        stdio: 'ignore',
      });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
