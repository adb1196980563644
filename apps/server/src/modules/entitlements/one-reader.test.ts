import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Issue 33: one answer to "what does this customer own". The entitlements module is the only
 * reader of access grants (`liveGrantsOf`); the subscription summaries' `access` and the rights to
 * reports ask it, so a grant the lifecycle revokes is gone from all of them at once. This names every
 * server source (tests and the `src/test/` support folder aside) that reads the grants itself.
 */
const SRC = fileURLToPath(new URL('../../', import.meta.url));

const READS = /\.(from|innerJoin|leftJoin|rightJoin|fullJoin)\(\s*accessGrants\b|\.query\.accessGrants\b|\b(from|join)\s+access_grants\b/i;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : sources(path);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [path] : [];
  });
}

export function grantReaders(files: { path: string; text: string }[]): string[] {
  return files.filter(({ text }) => READS.test(text)).map(({ path }) => path);
}

describe('the entitlements are the one reader of what a customer owns', () => {
  it('no other server file reads the access grants', () => {
    const files = sources(SRC).map((path) => ({ path: relative(SRC, path), text: readFileSync(path, 'utf8') }));
    expect(files.length).toBeGreaterThan(50);
    expect(grantReaders(files)).toEqual(['modules/entitlements/entitlements.ts']);
  });

  it('would name a reader elsewhere', () => {
    expect(
      grantReaders([
        { path: 'a.ts', text: 'db.query.accessGrants.findMany({ where })' },
        { path: 'b.ts', text: 'db.select().from(accessGrants).where(x)' },
        { path: 'c.ts', text: 'sql`select kind from access_grants where subscription_id = ${id}`' },
        { path: 'd.ts', text: 'db.select().from(subscriptions).innerJoin(accessGrants, on)' },
        { path: 'e.ts', text: 'db.update(accessGrants).set({ revokedAt: now })' },
      ]),
    ).toEqual(['a.ts', 'b.ts', 'c.ts', 'd.ts']);
  });
});
