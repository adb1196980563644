// Installs npm dependencies when they are missing or older than the lockfile. Node built-ins only.
import { existsSync, statSync } from 'node:fs';
import { mustRun, npmCommand } from './run.mjs';

/** True when node_modules matches package-lock.json (npm writes node_modules/.package-lock.json). */
export function dependenciesCurrent() {
  const marker = 'node_modules/.package-lock.json';
  if (!existsSync(marker) || !existsSync('package-lock.json')) return false;
  return statSync(marker).mtimeMs >= statSync('package-lock.json').mtimeMs;
}

export async function ensureDependencies() {
  if (dependenciesCurrent()) return;
  console.log('› installing npm dependencies (npm ci)…');
  await mustRun(npmCommand, ['ci', '--no-audit', '--no-fund', '--loglevel=error']);
}
