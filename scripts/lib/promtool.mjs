// promtool, Prometheus's own rule checker, for the alert rules in ops/prometheus: the machine's when
// it has one, else the binary of Debian's `prometheus` package unpacked into .cache (never installed:
// installing the package would start a Prometheus server).
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { hasCommand, mustRun } from './run.mjs';

const UNPACKED = resolve('.cache/promtool');
const UNPACKED_BINARY = join(UNPACKED, 'usr/bin/promtool');

/** The promtool to run, or null when this machine has none yet. */
export function promtoolPath() {
  if (process.env.PROMTOOL && existsSync(process.env.PROMTOOL)) return process.env.PROMTOOL;
  if (existsSync(UNPACKED_BINARY)) return UNPACKED_BINARY;
  return hasCommand('promtool') ? 'promtool' : null;
}

/** Makes sure promtool is there: downloads Debian's `prometheus` package with apt and unpacks it. */
export async function ensurePromtool() {
  const found = promtoolPath();
  if (found) return found;
  const isRoot = process.getuid?.() === 0;
  const prefix = isRoot ? [] : hasCommand('sudo') ? ['sudo'] : null;
  if (!prefix) throw new Error('promtool is missing: apt-get install -y prometheus (or set PROMTOOL to its path)');
  console.log('› fetching promtool (Debian package prometheus, unpacked into .cache, not installed)…');
  const download = join(UNPACKED, 'download');
  rmSync(UNPACKED, { recursive: true, force: true });
  mkdirSync(download, { recursive: true });
  const apt = (args, options) => (prefix.length ? mustRun(prefix[0], ['apt-get', ...args], options) : mustRun('apt-get', args, options));
  await apt(['update', '-qq']);
  // apt's sandbox user may not write here; the download itself is verified by apt either way.
  await apt(['download', '-qq', '-o', 'APT::Sandbox::User=root', 'prometheus'], { cwd: download });
  const deb = readdirSync(download).find((name) => name.endsWith('.deb'));
  if (!deb) throw new Error('apt-get download prometheus fetched no package');
  await mustRun('dpkg-deb', ['-x', join(download, deb), UNPACKED]);
  rmSync(download, { recursive: true, force: true });
  if (!existsSync(UNPACKED_BINARY)) throw new Error(`the prometheus package has no ${UNPACKED_BINARY}`);
  return UNPACKED_BINARY;
}
