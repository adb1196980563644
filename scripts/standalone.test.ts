import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DATASET_DIR as ANALYSIS_FIXTURES } from '../packages/analysis/src/testing/fixtures';
import { DEFAULT_DATASET_DIR as TRAINING_DEFAULT } from '../packages/analysis/src/training/dataset';
import { DATASET_DIR as SERVER_FIXTURES } from '../apps/server/src/modules/reports/report-fixtures';
import { CAMERA_FACE, DATASET_DIR as E2E_PHOTOS } from '../e2e/support/paths';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** True when `target` is the repository root or lies inside it. */
function insideRepository(target: string): boolean {
  const relative = path.relative(REPO_ROOT, path.resolve(target));
  return !relative.startsWith('..') && !path.isAbsolute(relative);
}

/** Tracked files (git), or every file but dependencies and build output where there is no git. */
function repositoryFiles(): string[] {
  try {
    return execFileSync('git', ['ls-files', '-z'], { cwd: REPO_ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  } catch {
    const skip = new Set(['node_modules', '.git', 'dist', '.cache', 'test-results', 'playwright-report']);
    const walk = (dir: string): string[] =>
      readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
        if (skip.has(entry.name)) return [];
        const relative = path.join(dir, entry.name);
        return entry.isDirectory() ? walk(relative) : [relative];
      });
    return walk('');
  }
}

// Built so that this file does not match itself.
const OUTSIDE_PATTERNS = [['..', 'shared'].join('/'), ['shared', 'datasets'].join('/'), ['shared', 'spec'].join('/')];
const TEXT_FILE = /\.(?:[cm]?[jt]sx?|json|md|ya?ml|html|css|sh|env\.example)$|^\.ci\/|(?:^|\/)\.[a-z]+rc$/;

describe('the repository stands alone', () => {
  it.each([
    ['analysis test fixtures', ANALYSIS_FIXTURES],
    ['the training default', TRAINING_DEFAULT],
    ['server report fixtures', SERVER_FIXTURES],
    ['browser-test photos', E2E_PHOTOS],
  ])('%s read the dev set from inside the repository', (_name, dir) => {
    expect(insideRepository(dir), `${dir} leaves the repository`).toBe(true);
    const rows = readFileSync(path.join(dir, 'labels.csv'), 'utf8').trim().split('\n').slice(1);
    expect(rows.length).toBe(335);
    for (const row of rows) expect(existsSync(path.join(dir, row.split(',')[0]!)), row).toBe(true);
  });

  it('keeps the dev set with its licence and source note', () => {
    const sources = readFileSync(path.join(ANALYSIS_FIXTURES, 'SOURCES.md'), 'utf8');
    expect(sources).toContain('CC BY 4.0');
    expect(sources).toContain('Kärkkäinen');
    expect(insideRepository(CAMERA_FACE) && existsSync(CAMERA_FACE)).toBe(true);
  });

  it('names no path outside the repository in code, scripts, tests or docs', () => {
    const files = repositoryFiles().filter((file) => TEXT_FILE.test(file));
    expect(files.length).toBeGreaterThan(100);
    const offenders = files.filter((file) => {
      const text = readFileSync(path.join(REPO_ROOT, file), 'utf8');
      return OUTSIDE_PATTERNS.some((pattern) => text.includes(pattern));
    });
    expect(offenders).toEqual([]);
  });
});
