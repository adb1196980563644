// Installs the Debian packages the tests need (chromium, postgresql, poppler-utils; podman, runc,
// debootstrap and catatonit for the container images and the played Kubernetes description) when missing.
import { existsSync, readdirSync } from 'node:fs';
import { hasCommand, mustRun } from './run.mjs';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/** The bin directory of the newest installed PostgreSQL server, or null. */
export function postgresBinDir() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(`${root}/${v}/bin/initdb`))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? `${root}/${versions[0]}/bin` : null;
}

/** Debian packages the test suite needs, each with how to tell it is there. */
const REQUIRED = [
  { name: 'chromium', present: () => existsSync(CHROMIUM_PATH) },
  { name: 'postgresql', present: () => postgresBinDir() !== null },
  { name: 'poppler-utils', present: () => hasCommand('pdftoppm') },
  // The images and the played Kubernetes description (ADRs 177, 178); catatonit: podman's pod pause image.
  { name: 'podman', present: () => existsSync('/usr/bin/podman') },
  { name: 'runc', present: () => existsSync('/usr/sbin/runc') || existsSync('/usr/bin/runc') },
  { name: 'debootstrap', present: () => existsSync('/usr/sbin/debootstrap') },
  { name: 'catatonit', present: () => existsSync('/usr/bin/catatonit') },
];

export async function ensureSystemPackages() {
  const missing = REQUIRED.filter((pkg) => !pkg.present()).map((pkg) => pkg.name);
  if (missing.length === 0) return;
  const isRoot = process.getuid?.() === 0;
  const prefix = isRoot ? [] : hasCommand('sudo') ? ['sudo'] : null;
  if (!prefix) throw new Error(`missing Debian packages: ${missing.join(', ')}. Install them: apt-get install -y ${missing.join(' ')}`);
  console.log(`› installing Debian packages: ${missing.join(', ')}…`);
  const apt = (args) => (prefix.length ? mustRun(prefix[0], ['apt-get', ...args]) : mustRun('apt-get', args));
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  process.env.DEBIAN_FRONTEND = env.DEBIAN_FRONTEND;
  await apt(['update', '-qq']);
  await apt(['install', '-y', '-qq', '--no-install-recommends', ...missing]);
}
