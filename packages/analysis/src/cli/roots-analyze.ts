#!/usr/bin/env node
import { readFile } from 'node:fs/promises';
import type { AnalysisOutcome } from '../analyzer.js';
import { createAnalysisPool } from '../pool/pool.js';

const USAGE = 'Usage: roots-analyze <image...> [--json]';

function jsonLine(file: string, outcome: AnalysisOutcome): string {
  if (!outcome.ok)
    return JSON.stringify({ file, error: { code: outcome.code, ...(outcome.cause === undefined ? {} : { cause: outcome.cause }) } });
  const { ok: _ok, ...result } = outcome;
  return JSON.stringify({ file, ...result });
}

function summary(file: string, outcome: AnalysisOutcome): string {
  if (!outcome.ok) return `${file}\n  ${outcome.code}${outcome.cause === undefined ? '' : ` (${outcome.cause})`}\n`;
  const { heritage } = outcome;
  const lines = [`${file}`];
  if (heritage.display === 'fine') {
    lines.push(`  Resemblance (${heritage.confidenceLevel} confidence):`);
    for (const group of heritage.groups.filter((g) => g.share > 0))
      lines.push(`    ${group.label.padEnd(18)} ${String(group.share).padStart(3)}%`);
  } else {
    lines.push(`  Fine groups uncertain; broad resemblance${heritage.display === 'uncertain' ? ' (also uncertain)' : ''}:`);
    for (const group of heritage.coarse.groups.filter((g) => g.share > 0))
      lines.push(`    ${group.label.padEnd(26)} ${String(group.share).padStart(3)}%`);
  }
  lines.push('  Traits:');
  for (const trait of outcome.traits) lines.push(`    ${trait.id.padEnd(13)} ${trait.label.padEnd(14)} ${trait.description}`);
  lines.push('  Regions that shaped the estimate:');
  for (const region of [...outcome.attributions.regions].sort((a, b) => b.weight - a.weight)) {
    lines.push(`    ${region.label.padEnd(22)} ${Math.round(region.weight * 100)}% (${region.direction})`);
  }
  lines.push(`  ${heritage.disclaimer}`, '');
  return lines.join('\n');
}

async function main(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  const files = argv.filter((a) => !a.startsWith('--'));
  if (files.length === 0) {
    console.error(USAGE);
    return 2;
  }
  const pool = createAnalysisPool({ size: Math.min(files.length, (await import('node:os')).availableParallelism()) });
  try {
    // Start every file at once; print strictly in input order.
    const outcomes = files.map(async (file) => {
      let bytes: Uint8Array;
      try {
        bytes = await readFile(file);
      } catch {
        return { file, outcome: undefined };
      }
      return { file, outcome: await pool.analyze(bytes) };
    });
    let failures = 0;
    for (const pending of outcomes) {
      const { file, outcome } = await pending;
      if (!outcome) {
        failures += 1;
        const error = { code: 'FILE_NOT_READABLE', message: `Could not read ${file}.` };
        console.log(json ? JSON.stringify({ file, error }) : `${file}\n  ${error.code}: ${error.message}\n`);
        continue;
      }
      if (!outcome.ok) failures += 1;
      console.log(json ? jsonLine(file, outcome) : summary(file, outcome));
    }
    return failures === 0 ? 0 : 1;
  } finally {
    await pool.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
