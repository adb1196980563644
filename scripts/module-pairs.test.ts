import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Which module folders of an app import which (issue 33): every relative import, `export … from`
 * and `import()` of the production sources under `modulesDir` (type imports count; tests do not),
 * read by TypeScript's own pre-processor, as edges between the folders directly under it.
 */
export function moduleEdges(modulesDir: string): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  const moduleOf = (file: string): string | undefined => {
    const path = relative(modulesDir, file);
    if (path.startsWith('..')) return undefined;
    const [first, ...rest] = path.split(sep);
    return rest.length > 0 ? first : undefined;
  };
  for (const file of sources(modulesDir)) {
    const from = moduleOf(file);
    if (!from) continue;
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const to = moduleOf(resolve(dirname(file), fileName));
      if (!to || to === from) continue;
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from)!.add(to);
    }
  }
  return edges;
}

/** The pairs of module folders that import each other, each named once (`a ↔ b`, sorted). */
export function mutualPairs(edges: Map<string, Set<string>>): string[] {
  const pairs: string[] = [];
  for (const [from, targets] of edges) {
    for (const to of targets) if (from < to && edges.get(to)?.has(from)) pairs.push(`${from} ↔ ${to}`);
  }
  return pairs.sort();
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

describe('no two module folders import each other (issue 33)', () => {
  for (const app of ['server', 'gateway']) {
    it(`apps/${app}/src/modules: every import between two rooms runs one way`, () => {
      const edges = moduleEdges(join(REPO_ROOT, 'apps', app, 'src', 'modules'));
      // The reading is not blind: the rooms do import one another, one way.
      expect([...edges.values()].reduce((sum, targets) => sum + targets.size, 0)).toBeGreaterThan(20);
      expect(mutualPairs(edges), 'move what both need into a room of its own, below both').toEqual([]);
    });
  }

  it('names a pair put back, through a type import, an export or a dynamic import', () => {
    const dir = mkdtempSync(join(tmpdir(), 'module-pairs-'));
    try {
      const write = (path: string, text: string) => {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      };
      write('a/a.ts', "import type { B } from '../b/b';\nexport type A = B;\n");
      write('b/b.ts', "export type B = string;\nexport { c } from '../c/c';\n");
      write('c/c.ts', "export const c = () => import('../b/b');\n");
      write('c/c.test.ts', "import '../a/a';\n");
      write('d/d.ts', "import { c } from '../c/c';\nimport '../a/a';\n");
      write('a/uses-d.ts', "import '../d/d';\n");
      expect(mutualPairs(moduleEdges(dir))).toEqual(['a ↔ d', 'b ↔ c']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
