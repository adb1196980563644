import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Issue 23: the lifecycle is the only writer of a subscription's state (status, period, due date,
 * agreed terms, card on file) and of access grants. This reads the server's sources (tests and the
 * `src/test/` folder of test support aside) and names every file that writes them. A fixture in a
 * production folder is read like any source (issue 33: `account.fixtures.ts` lived in one).
 */
const SRC = fileURLToPath(new URL('../../', import.meta.url));
const STATE_COLUMNS = [
  'status',
  'currentPeriod',
  'currentPeriodStart',
  'currentPeriodEnd',
  'dueAt',
  'retryCount',
  'canceledAt',
  'endedAt',
  'agreedTerms',
  'instrumentId',
  'cardLast4',
  'cardNetwork',
  'paidPeriods',
  'period0PaidAt',
  'period1PaidAt',
];
const STATE_SQL_COLUMNS = STATE_COLUMNS.map((column) => column.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`));

const WRITES: { what: string; pattern: RegExp }[] = [
  { what: 'insert of a subscription', pattern: /\.insert\(\s*subscriptions\s*\)|insert\s+into\s+subscriptions\b/i },
  { what: 'write of an access grant', pattern: /\.(insert|update)\(\s*accessGrants\s*\)|(insert\s+into|update)\s+access_grants\b/i },
  {
    // A state column named in the patch, or a patch spread or passed whole (it may hold any column).
    what: 'update of a state column',
    pattern: new RegExp(
      `\\.update\\(\\s*subscriptions\\s*\\)\\s*\\.set\\(\\s*(\\{[^}]*\\b(${STATE_COLUMNS.join('|')})\\b|\\{\\s*\\.\\.\\.|[A-Za-z_])`,
      's',
    ),
  },
  {
    // The SET list only (up to WHERE): a state column read in the condition is no write.
    what: 'SQL update of a state column',
    pattern: new RegExp(`update\\s+subscriptions\\s+set\\s+(?:(?!\\bwhere\\b)[^;])*?\\b(${STATE_SQL_COLUMNS.join('|')})\\s*=`, 'is'),
  },
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : sources(path);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [path] : [];
  });
}

export function writersOf(files: { path: string; text: string }[]): string[] {
  return files.flatMap(({ path, text }) => WRITES.filter(({ pattern }) => pattern.test(text)).map(({ what }) => `${path}: ${what}`));
}

describe('the lifecycle is the only writer of subscription state', () => {
  it('no other server module writes status, period, due date, terms, card or grants', () => {
    const files = sources(SRC).map((path) => ({ path: relative(SRC, path), text: readFileSync(path, 'utf8') }));
    expect(files.length).toBeGreaterThan(50);
    expect(writersOf(files).filter((writer) => !writer.startsWith('modules/lifecycle/lifecycle.repository.ts'))).toEqual([]);
    // It does find the lifecycle's own writes (the patterns are not blind).
    expect(writersOf(files).map((writer) => writer.split(': ')[1])).toEqual(
      expect.arrayContaining(['insert of a subscription', 'write of an access grant', 'update of a state column']),
    );
  });

  it('would name a write elsewhere', () => {
    const elsewhere = [
      { path: 'a.ts', text: 'await db.update(subscriptions).set({ leaseUntil: null, status: "expired" })' },
      { path: 'b.ts', text: 'sql`update subscriptions set due_at = now()`' },
      { path: 'c.ts', text: 'await db.insert(accessGrants).values(x)' },
      { path: 'd.ts', text: 'await db.update(subscriptions).set({ leaseUntil: null })' },
      { path: 'e.ts', text: 'sql`update subscriptions set lease_until = ${until} where status = ${s}`' },
      { path: 'f.ts', text: 'await db.update(subscriptions).set(patch).where(x)' },
      { path: 'g.ts', text: 'await db.update(subscriptions)\n  .set({ ...patch, updatedAt: now })' },
    ];
    expect(writersOf(elsewhere)).toEqual([
      'a.ts: update of a state column',
      'b.ts: SQL update of a state column',
      'c.ts: write of an access grant',
      'f.ts: update of a state column',
      'g.ts: update of a state column',
    ]);
  });
});
