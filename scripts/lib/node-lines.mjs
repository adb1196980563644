// Which Node.js lines the product supports, and a Node 24 from the npm registry for the test step
// that proves it there (issue 26). Node built-ins only: this runs before `npm install`.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { mustRun, npmCommand } from './run.mjs';

/** Maintained LTS lines the product is built and tested for (Node 20 left maintenance on 2026-04-30). */
export const SUPPORTED_LINES = [
  { major: 22, minor: 12, endOfLife: '2027-04-30' },
  { major: 24, minor: 0, endOfLife: '2028-04-30' },
];

/** The Node 24 release `npm test` proves the product on (the npm registry's `node-<os>-<arch>` package). */
export const NODE_24 = '24.21.0';

/**
 * Whether `version` (e.g. `v20.20.0`) is a supported line: `supported`, `end-of-life` (an older line
 * that still runs the product but is not maintained any more) or `unsupported` (too old to run it).
 */
export function nodeSupport(version = process.version) {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number);
  if (SUPPORTED_LINES.some((line) => major > line.major || (major === line.major && minor >= line.minor))) return 'supported';
  if (major === 20 && minor >= 19) return 'end-of-life';
  return 'unsupported';
}

const LINES_TEXT = SUPPORTED_LINES.map((line) => `${line.major}.${line.minor}+`).join(' or ');

/** Says clearly, before anything starts, what this Node is to the product; exits on one that cannot run it. */
export function checkNode(version = process.version) {
  switch (nodeSupport(version)) {
    case 'supported':
      return;
    case 'end-of-life':
      console.warn(
        `\n  Node ${version} is past its end of life and not supported. Roots runs on it for now, but use Node ${LINES_TEXT}` +
          ' (https://nodejs.org/en/about/previous-releases).\n',
      );
      return;
    default:
      console.error(`\n  Node ${version} cannot run Roots. Install Node ${LINES_TEXT} and run the command again.\n`);
      process.exit(1);
  }
}

/**
 * The path of a Node 24 binary: this one when it is Node 24 already, else `NODE_24` installed from the
 * npm registry into `.cache/node-24` (one download, reused).
 */
export async function node24() {
  if (process.versions.node.startsWith('24.')) return process.execPath;
  return registryNode(NODE_24);
}

/**
 * The npm registry's Node `version` (package `node-<os>-<arch>`), installed into `.cache/node-<version>`
 * on first use: the binary `npm test` runs Node 24 with and the one the container images carry.
 */
export async function registryNode(version = NODE_24, platform = process.platform, arch = process.arch) {
  const prefix = resolve('.cache', `node-${version}`);
  const pkg = `node-${platform}-${arch}`;
  const binary = join(prefix, 'node_modules', pkg, 'bin', platform === 'win32' ? 'node.exe' : 'node');
  if (!existsSync(binary)) {
    console.log(`› fetching Node ${version} (${pkg}) from the npm registry…`);
    await mustRun(npmCommand, [
      'install',
      '--prefix',
      prefix,
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      `${pkg}@${version}`,
    ]);
  }
  return binary;
}
