// One UI runtime (ADR 125): the web build and the dev server render with Preact through
// `preact/compat`, the same modules apps/web/src/ui-runtime.test.tsx finds in the jsdom unit tests,
// and nothing stands in for React (the hand-written `react-on-preact` module of ADR 081 is gone).
// Both checks run the web app's own vite.config.ts with all its plugins.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, createServer, type Rolldown } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { WEB_REACT_DEPENDENTS } from '../vitest.config.ts';
import { runtimeTree } from './check-licences.mjs';

const web = join(dirname(fileURLToPath(import.meta.url)), '..', 'apps', 'web');
const configFile = join(web, 'vite.config.ts');
const entry = join(web, 'src', 'main.tsx');
/** React's own packages, wherever npm put them. */
const REACT_ITSELF = /[\\/]node_modules[\\/]react(?:-dom)?[\\/]/;
const scratch = mkdtempSync(join(tmpdir(), 'roots-ui-runtime-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Every module the production build puts into its chunks (nothing written to disk). */
async function builtModuleIds(): Promise<string[]> {
  const result = await build({ root: web, configFile, logLevel: 'silent', build: { outDir: scratch, write: false, sourcemap: false } });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  return outputs.flatMap((output) => output.output.flatMap((item) => (item.type === 'chunk' ? item.moduleIds : [])));
}

describe('the web app renders with one runtime', () => {
  it('the production bundle holds Preact and its compat layer, no React and no stand-in module', { timeout: 120_000 }, async () => {
    const ids = await builtModuleIds();
    expect(ids.some((id) => /[\\/]node_modules[\\/]preact[\\/]compat[\\/]/.test(id))).toBe(true);
    expect(ids.some((id) => /[\\/]node_modules[\\/]preact[\\/]hooks[\\/]/.test(id))).toBe(true);
    expect(ids.filter((id) => REACT_ITSELF.test(id))).toEqual([]);
    // Modules that are no file on disk (the bundler's own helpers): none of them may be a React.
    const virtual = ids.filter((id) => !existsSync(id.split('?')[0] ?? id));
    expect(virtual.filter((id) => /react/i.test(id))).toEqual([]);
    expect(existsSync(join(web, 'build', 'react-on-preact.js'))).toBe(false);
  });

  it('in the unit tests every package of the web app that reaches react loads through the same aliases', () => {
    type Lock = { packages: Record<string, { dependencies?: Record<string, string>; peerDependencies?: Record<string, string> }> };
    const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8')) as Lock;
    const tree = runtimeTree(lock, 'apps/web') as string[];
    const nameOf = (path: string) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const usesOf = (path: string) => Object.keys({ ...lock.packages[path]?.dependencies, ...lock.packages[path]?.peerDependencies });
    // Packages that import react or react-dom, directly or through another such package.
    const reaching = new Set(['react', 'react-dom']);
    for (let grew = true; grew;) {
      grew = false;
      for (const path of tree) {
        if (reaching.has(nameOf(path)) || !usesOf(path).some((name) => reaching.has(name))) continue;
        reaching.add(nameOf(path));
        grew = true;
      }
    }
    const dependents = tree.filter((path) => reaching.has(nameOf(path)) && !['react', 'react-dom'].includes(nameOf(path)));
    expect(dependents.map(nameOf)).toEqual(expect.arrayContaining(['react-router', 'react-i18next', '@hookform/resolvers', 'recharts']));
    // Not inlined, Node would load such a package outside Vite, and with it React itself.
    expect(dependents.filter((path) => !WEB_REACT_DEPENDENTS.test(`/${path}/`))).toEqual([]);
  });

  it('the dev server resolves react, react-dom and the JSX runtime to Preact', { timeout: 120_000 }, async () => {
    const server = await createServer({
      root: web,
      configFile,
      logLevel: 'silent',
      server: { middlewareMode: true, hmr: false, ws: false },
      optimizeDeps: { noDiscovery: true, include: [] },
    });
    try {
      const resolved: Record<string, string | undefined> = {};
      for (const id of ['react', 'react-dom', 'react-dom/client', 'react/jsx-runtime'])
        resolved[id] = (await server.pluginContainer.resolveId(id, entry))?.id;
      expect(resolved).toEqual({
        react: expect.stringMatching(/preact[\\/_]compat/),
        'react-dom': expect.stringMatching(/preact[\\/_]compat/),
        'react-dom/client': expect.stringMatching(/preact[\\/_]compat[\\/_]client/),
        'react/jsx-runtime': expect.stringMatching(/preact[\\/_]jsx-runtime/),
      });
    } finally {
      await server.close();
    }
  });
});
