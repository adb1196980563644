import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
/**
 * The two hand-kept tables (issue 26: only the product's was checked), and the folder each short
 * prefix of a proof stands for (the checkout table's `sdk/`, `sf/`, `gw/`, `e2e/`).
 */
const TABLES: { file: string; prefixes: Record<string, string> }[] = [
  { file: 'docs/spec-conformance/product.md', prefixes: {} },
  {
    file: 'docs/spec-conformance/checkout.md',
    prefixes: {
      'sdk/': 'packages/checkout/src/',
      'sf/': 'packages/secure-fields/src/',
      'gw/': 'apps/gateway/src/',
      'e2e/': 'e2e/checkout/',
    },
  },
];

/** Folders that are never cited: dependencies, build output, caches. */
const SKIPPED_DIRS = new Set(['node_modules', '.git', 'dist', '.cache', 'test-results', 'playwright-report', 'coverage']);

/** Every file of the repository by its base name, for proofs that name a file without its folder. */
function filesByBaseName(): Map<string, string[]> {
  const byName = new Map<string, string[]>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true })) {
      if (SKIPPED_DIRS.has(entry.name)) continue;
      const relative = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(relative);
      else byName.set(entry.name, [...(byName.get(entry.name) ?? []), relative]);
    }
  };
  walk('');
  return byName;
}

export type ConformanceRow = { section: string; requirement: string; status: string; proof: string; line: number };

/** The rows of every `| requirement | status | proof |` table of a hand-kept conformance file. */
export function parseConformanceRows(markdown: string): ConformanceRow[] {
  const rows: ConformanceRow[] = [];
  let section = '';
  let columns: string[] | null = null;
  markdown.split('\n').forEach((text, index) => {
    if (text.startsWith('## ')) {
      section = text.slice(3).trim();
      columns = null;
      return;
    }
    if (!text.startsWith('|')) {
      columns = null;
      return;
    }
    const cells = text
      .slice(1, text.endsWith('|') ? -1 : undefined)
      .split('|')
      .map((cell) => cell.trim());
    if (columns === null) {
      columns = cells.map((cell) => cell.toLowerCase());
      return;
    }
    if (cells.every((cell) => /^:?-+:?$/.test(cell))) return;
    const at = (name: string) => cells[columns!.indexOf(name)] ?? '';
    rows.push({ section, requirement: at('requirement'), status: at('status'), proof: at('proof') || at('test'), line: index + 1 });
  });
  return rows;
}

/** A cited file: a backticked name ending in a source or document extension, no spaces or braces. */
const FILE_TOKEN = /^[\w@./-]+\.(?:tsx?|mjs|js|md|json)$/;
const TEST_FILE = /\.(?:test|spec)\.tsx?$/;

/** The files a proof cell names (backticked), in order. */
export function citedFiles(proof: string): string[] {
  return [...proof.matchAll(/`([^`]+)`/g)].map((match) => match[1]!).filter((token) => FILE_TOKEN.test(token));
}

/**
 * The values a requirement's text holds (issue 33: a done row's cited test need not have touched its
 * value): quoted strings ('…', "…", “…”) and numbers, versions included (`750 000` is 750000). Text
 * in backticks names code, not a value, and is left out.
 */
export function requirementValues(requirement: string): string[] {
  const quoted = /(?<!\w)'([^'`]{2,}?)'(?!\w)|"([^"`]{2,}?)"|“([^”]{2,}?)”/g;
  const values = [...requirement.matchAll(quoted)].map((match) => (match[1] ?? match[2] ?? match[3])!);
  const rest = requirement.replace(quoted, ' ').replace(/`[^`]*`/g, ' ');
  for (const match of rest.matchAll(/(?<![\w.-])(\d{1,3}(?: \d{3})+|\d+(?:\.\d+)*)(?![\w-])/g)) values.push(match[1]!.replace(/ /g, ''));
  return values;
}

/** Whether a test's source holds a value: a number as written or with `_` between its thousands. */
export function holdsValue(source: string, value: string): boolean {
  if (!/^\d+$/.test(value)) return source.includes(value);
  const grouped = value.replace(/\B(?=(?:\d{3})+(?!\d))/g, '_?');
  return new RegExp(`(?<![\\d_])${grouped}(?![\\d_])`).test(source);
}

describe.each(TABLES)('$file', ({ file, prefixes }) => {
  const rows = parseConformanceRows(readFileSync(path.join(REPO_ROOT, file), 'utf8'));
  const byName = filesByBaseName();
  const resolved = (cited: string) => {
    const prefix = Object.keys(prefixes).find((short) => cited.startsWith(short));
    return prefix ? `${prefixes[prefix]}${cited.slice(prefix.length)}` : cited;
  };
  const exists = (cited: string) => (cited.includes('/') ? existsSync(path.join(REPO_ROOT, resolved(cited))) : byName.has(cited));

  it('is read as tables of requirement, status and proof', () => {
    expect(rows.length).toBeGreaterThan(80);
    expect(rows.every((row) => row.requirement !== '' && row.status !== '')).toBe(true);
  });

  it('cites only files that exist', () => {
    const missing = rows.flatMap((row) =>
      citedFiles(row.proof)
        .filter((cited) => !exists(cited))
        .map((cited) => `line ${row.line}: ${cited}`),
    );
    expect(missing).toEqual([]);
  });

  it('names an existing test file for every row marked done', () => {
    const unproven = rows
      .filter((row) => row.status.startsWith('done'))
      .filter((row) => !citedFiles(row.proof).some((cited) => TEST_FILE.test(cited) && exists(cited)))
      .map((row) => `line ${row.line}: ${row.requirement}`);
    expect(unproven).toEqual([]);
  });

  it('cites, for every done row, a test that holds each value of its text', () => {
    const testSources = (row: ConformanceRow) =>
      citedFiles(row.proof)
        .filter((cited) => TEST_FILE.test(cited))
        .flatMap((cited) => (cited.includes('/') ? [resolved(cited)] : (byName.get(cited) ?? [])))
        .filter((found) => existsSync(path.join(REPO_ROOT, found)))
        .map((found) => readFileSync(path.join(REPO_ROOT, found), 'utf8'))
        .join('\n');
    const untouched = rows
      .filter((row) => row.status.startsWith('done'))
      .flatMap((row) => {
        const source = testSources(row);
        return requirementValues(row.requirement)
          .filter((value) => !holdsValue(source, value))
          .map((value) => `line ${row.line}: ${JSON.stringify(value)} (${row.requirement})`);
      });
    expect(untouched).toEqual([]);
  });

  it('gives every partial row its decision record', () => {
    const unexplained = rows
      .filter((row) => row.status.startsWith('partial') || row.status.startsWith('deviation'))
      .filter((row) => !/ADR \d{3}/.test(row.proof) && !/ADR \d{3}/.test(row.requirement))
      .map((row) => `line ${row.line}: ${row.requirement}`);
    expect(unexplained).toEqual([]);
  });
});

describe('conformance table parsing', () => {
  const sample = [
    '## §9 Constants',
    '',
    '| requirement | status | proof |',
    '| ----------- | ------ | ----- |',
    '| Cookies path `/` | done | `apps/x.test.ts`, `b.spec.ts`, `Path=/`, `/webapp?wmq=1`, `main.tsx` |',
  ].join('\n');

  it('finds the values of a requirement and whether a test holds them', () => {
    expect(requirementValues("Pix: popup 750 000 ms, 'Payment pending', `MAX_1` vault SDK 1.30.1 and the integrator's 3-D Secure")).toEqual(
      ['Payment pending', '750000', '1.30.1'],
    );
    expect(holdsValue('expect(delay).toBe(750_000)', '750000')).toBe(true);
    expect(holdsValue('expect(delay).toBe(7500000)', '750000')).toBe(false);
    expect(holdsValue("toBe('Payment pending')", 'Payment pending')).toBe(true);
    expect(holdsValue("toBe('Payment pend')", 'Payment pending')).toBe(false);
  });

  it('reads the section, status and cited files of a row', () => {
    const [row] = parseConformanceRows(sample);
    expect(row).toMatchObject({ section: '§9 Constants', requirement: 'Cookies path `/`', status: 'done', line: 5 });
    expect(citedFiles(row!.proof)).toEqual(['apps/x.test.ts', 'b.spec.ts', 'main.tsx']);
  });
});
