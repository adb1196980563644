// Licence check of the dependencies the product ships (issue 17), from package-lock.json alone.
// Two scopes: what the web build sends to browsers (apps/web's dependency tree: permissive
// licences only), and what the servers run in production (also weak copyleft that stays a separate,
// unmodified library: LGPL for sharp's native libvips, MPL-2.0 file-level). Dev-only packages are
// not shipped and not checked. Run: node scripts/check-licences.mjs
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Permissive licences: fine anywhere, browsers included. */
export const PERMISSIVE = [
  'MIT',
  'MIT-0',
  'ISC',
  'BSD-2-Clause',
  'BSD-3-Clause',
  'Apache-2.0',
  '0BSD',
  'BlueOak-1.0.0',
  'CC0-1.0',
  'Unlicense',
  'CC-BY-4.0',
];
/** Also allowed in server-side production dependencies (a separate library, used unmodified). */
export const SERVER_ONLY = ['LGPL-3.0-or-later', 'MPL-2.0'];

/**
 * Packages whose lockfile entry lacks a licence field, with the licence their own LICENSE file
 * states (checked by hand; re-check on upgrade).
 */
export const DECLARED_LICENCES = { 'node_modules/png-js': 'MIT' };

/** Workspaces that run in production on a server. */
const SERVER_WORKSPACES = ['apps/server', 'apps/gateway'];
/** The workspace whose dependency tree is bundled for browsers. */
const BROWSER_WORKSPACE = 'apps/web';

/** Whether an SPDX expression (`A OR B`, `A AND B`, parentheses) is satisfied by the allowed ids. */
export function licenceAllowed(expression, allowed) {
  const text = expression.trim().replace(/^\((.*)\)$/, '$1');
  if (/ OR /i.test(text)) return text.split(/ OR /i).some((part) => licenceAllowed(part, allowed));
  if (/ AND /i.test(text)) return text.split(/ AND /i).every((part) => licenceAllowed(part, allowed));
  return allowed.includes(text.trim());
}

/** The lockfile path a dependency `name` required from `fromPath` resolves to (Node's lookup). */
function resolveEntry(packages, fromPath, name) {
  let dir = fromPath;
  for (;;) {
    const candidate = dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!dir) return undefined;
    const parent = dir.lastIndexOf('/node_modules/');
    dir = parent === -1 ? '' : dir.slice(0, parent);
  }
}

/** Every lockfile path a workspace needs at run time (dependencies, optional and peer, transitively). */
export function runtimeTree(lock, workspace) {
  const { packages } = lock;
  const seen = new Set();
  const queue = [workspace];
  while (queue.length > 0) {
    let path = queue.shift();
    if (seen.has(path)) continue;
    seen.add(path);
    let entry = packages[path];
    if (entry?.link) {
      path = entry.resolved;
      seen.add(path);
      entry = packages[path];
    }
    if (!entry) continue;
    const names = [
      ...Object.keys(entry.dependencies ?? {}),
      ...Object.keys(entry.optionalDependencies ?? {}),
      ...Object.keys(entry.peerDependencies ?? {}),
    ];
    for (const name of names) {
      const resolved = resolveEntry(packages, path, name);
      if (resolved && !seen.has(resolved)) queue.push(resolved);
    }
  }
  return [...seen].filter((path) => path.includes('node_modules/') && !packages[path]?.link);
}

/** Problems, one line each: a shipped package whose licence is missing or not allowed in its scope. */
export function checkLicences(lock) {
  const problems = [];
  const check = (paths, allowed, scope) => {
    for (const path of paths) {
      const entry = lock.packages[path];
      const licence = entry?.license ?? DECLARED_LICENCES[path];
      if (typeof licence !== 'string') problems.push(`${path}: no licence declared (${scope})`);
      else if (!licenceAllowed(licence, allowed)) problems.push(`${path}@${entry?.version}: ${licence} is not allowed in ${scope}`);
    }
  };
  const browser = runtimeTree(lock, BROWSER_WORKSPACE);
  check(browser, PERMISSIVE, 'code shipped to browsers');
  const server = new Set(SERVER_WORKSPACES.flatMap((workspace) => runtimeTree(lock, workspace)));
  check(
    [...server].filter((path) => !browser.includes(path)),
    [...PERMISSIVE, ...SERVER_ONLY],
    'server production dependencies',
  );
  return { problems, counts: { browser: browser.length, server: server.size } };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8'));
  const { problems, counts } = checkLicences(lock);
  for (const problem of problems) console.error(`licence: ${problem}`);
  console.info(`licences: ${counts.browser} browser and ${counts.server} server packages checked, ${problems.length} problem(s)`);
  process.exit(problems.length > 0 ? 1 : 0);
}
