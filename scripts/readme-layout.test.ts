import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** Issue 26: the README's layout table names every workspace (it had left four packages out). */
describe('README layout table', () => {
  it('has a row for every app and package', () => {
    const readme = readFileSync('README.md', 'utf8');
    const rows = new Set([...readme.matchAll(/^\| `([^`]+)`/gm)].map((match) => match[1]));
    const workspaces = ['apps', 'packages'].flatMap((group) =>
      readdirSync(group, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => `${group}/${entry.name}`),
    );
    expect(workspaces.length).toBeGreaterThanOrEqual(11);
    expect(workspaces.filter((workspace) => !rows.has(workspace))).toEqual([]);
  });
});
