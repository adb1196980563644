import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * Issue 26: decisions were amended without a mark on the decision amended. When ADR M says it
 * amends, supersedes, replaces, refines or extends ADR N (N < M), ADR N's status names M (issue 33:
 * "extends" went uncounted).
 */
const DIR = 'docs/decisions';
const RELATION =
  /\b(?:supersed\w*|amend\w*|replac\w*|refin\w*|extend\w*)\b[^.\n]{0,40}?\b(?:ADRs?|decisions?)\s+((?:\d{3}(?:'s)?(?:,\s*|\s+and\s+|\s*)?)+)/gi;

function decisions(): Map<number, { status: string; text: string }> {
  const all = new Map<number, { status: string; text: string }>();
  for (const name of readdirSync(DIR).filter((file) => /^\d{3}-.*\.md$/.test(file))) {
    const text = readFileSync(`${DIR}/${name}`, 'utf8');
    // The status is its line and what continues it, up to the next blank line.
    const status = /^- Status:([\s\S]*?)(?:\n\s*\n|(?![\s\S]))/m.exec(text)?.[1] ?? '';
    all.set(Number(name.slice(0, 3)), { status, text });
  }
  return all;
}

export function unmarked(all: Map<number, { status: string; text: string }>): string[] {
  const missing: string[] = [];
  for (const [later, { text }] of all) {
    for (const match of text.matchAll(RELATION)) {
      for (const earlier of (match[1] ?? '').match(/\d{3}/g) ?? []) {
        const target = all.get(Number(earlier));
        if (Number(earlier) >= later || !target || target.status.includes(String(later))) continue;
        missing.push(`ADR ${earlier} does not say it was amended by ADR ${later}`);
      }
    }
  }
  return [...new Set(missing)].sort();
}

describe('decision records', () => {
  it('every amended or superseded decision says by which', () => {
    const all = decisions();
    expect(all.size).toBeGreaterThan(80);
    expect(unmarked(all)).toEqual([]);
  });

  it('would name an amendment left unmarked', () => {
    const all = new Map([
      [30, { status: ' accepted', text: '' }],
      [116, { status: ' accepted', text: 'This amends ADR 030: limits are shared.' }],
      [60, { status: ' accepted; amended by ADR 085', text: '' }],
      [85, { status: ' accepted', text: "It amends ADR 060's proof." }],
    ]);
    expect(unmarked(all)).toEqual(['ADR 030 does not say it was amended by ADR 116']);
  });
});
