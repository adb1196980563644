import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkLicences, licenceAllowed, PERMISSIVE, runtimeTree } from './check-licences.mjs';

type Lock = { packages: Record<string, Record<string, unknown>> };
const realLock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8')) as Lock;

/** A lockfile with a web app and a server, each depending on what `extra` adds. */
function lockWith(web: Record<string, string>, server: Record<string, string>, entries: Lock['packages']): Lock {
  return {
    packages: {
      '': { name: 'roots' },
      'apps/web': { dependencies: web },
      'apps/server': { dependencies: server },
      'apps/gateway': {},
      'node_modules/@roots/web': { resolved: 'apps/web', link: true },
      'node_modules/ok-lib': { version: '1.0.0', license: 'MIT' },
      ...entries,
    },
  };
}

describe('licence check of shipped dependencies', () => {
  it('passes on the repository’s own lockfile, with ua-parser-js 1.x (MIT) in the browser bundle', () => {
    const { problems, counts } = checkLicences(realLock);
    expect(problems).toEqual([]);
    expect(counts.browser).toBeGreaterThan(10);
    const browser = runtimeTree(realLock, 'apps/web');
    const uaParser = browser.find((path) => path.endsWith('node_modules/ua-parser-js'));
    expect(uaParser).toBeDefined();
    expect(realLock.packages[uaParser!]).toMatchObject({ license: 'MIT', version: expect.stringMatching(/^1\./) });
    // Dev-only tools are not shipped: the bundler is not in the browser tree.
    expect(browser.some((path) => path.endsWith('node_modules/vite'))).toBe(false);
  });

  it('refuses AGPL (directly or deep in the tree) and LGPL in browser code, and a package without a licence', () => {
    const lock = lockWith(
      { 'ua-parser-js': '^2', 'ok-lib': '1' },
      { 'native-lib': '1' },
      {
        'node_modules/ua-parser-js': { version: '2.0.10', license: 'AGPL-3.0-or-later', dependencies: { 'deep-lib': '1' } },
        'node_modules/deep-lib': { version: '1.0.0', license: 'GPL-3.0-only' },
        'node_modules/native-lib': { version: '1.0.0', license: 'LGPL-3.0-or-later', dependencies: { nameless: '1' } },
        'node_modules/nameless': { version: '0.1.0' },
      },
    );
    expect(checkLicences(lock).problems).toEqual([
      'node_modules/ua-parser-js@2.0.10: AGPL-3.0-or-later is not allowed in code shipped to browsers',
      'node_modules/deep-lib@1.0.0: GPL-3.0-only is not allowed in code shipped to browsers',
      'node_modules/nameless: no licence declared (server production dependencies)',
    ]);
    const lgplInBrowser = lockWith(
      { 'native-lib': '1' },
      {},
      { 'node_modules/native-lib': { version: '1.0.0', license: 'LGPL-3.0-or-later' } },
    );
    expect(checkLicences(lgplInBrowser).problems).toEqual([
      'node_modules/native-lib@1.0.0: LGPL-3.0-or-later is not allowed in code shipped to browsers',
    ]);
  });

  it('reads SPDX expressions: OR needs one allowed choice, AND needs all', () => {
    expect(licenceAllowed('(MIT OR GPL-3.0-only)', PERMISSIVE)).toBe(true);
    expect(licenceAllowed('MIT AND GPL-3.0-only', PERMISSIVE)).toBe(false);
    expect(licenceAllowed('MIT AND ISC AND BSD-3-Clause', PERMISSIVE)).toBe(true);
    expect(licenceAllowed('AGPL-3.0-or-later', PERMISSIVE)).toBe(false);
  });

  it('follows Node’s lookup: a nested copy shadows the hoisted one', () => {
    const lock = lockWith(
      { parent: '1' },
      {},
      {
        'node_modules/parent': { version: '1.0.0', license: 'MIT', dependencies: { child: '2' } },
        'node_modules/child': { version: '1.0.0', license: 'MIT' },
        'node_modules/parent/node_modules/child': { version: '2.0.0', license: 'AGPL-3.0-only' },
      },
    );
    expect(runtimeTree(lock, 'apps/web')).toEqual(['node_modules/parent', 'node_modules/parent/node_modules/child']);
    expect(checkLicences(lock).problems).toHaveLength(1);
  });
});
