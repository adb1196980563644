// Type-checks every workspace (and the e2e suite and web bench) with its own tsconfig, two at a time.
import { existsSync } from 'node:fs';
import { run } from './lib/run.mjs';

const projects = [
  'packages/contracts',
  'apps/gateway',
  'apps/server',
  'apps/analyzer',
  'packages/observability',
  'packages/server-kit',
  'apps/web',
  'e2e',
  'packages/insights',
  'packages/analysis',
  'packages/checkout',
  'packages/secure-fields',
  'bench/web',
].filter((dir) => existsSync(`${dir}/tsconfig.json`));

const tsc = (args) => run(process.execPath, ['node_modules/typescript/bin/tsc', '--pretty', ...args]);

// Packages whose consumers read their types from the emitted declarations (dist/*.d.ts) are
// built first, so a fresh clone type-checks before `npm run build` has ever run.
for (const dir of ['packages/analysis']) {
  if ((await tsc(['-p', `${dir}/tsconfig.build.json`])) !== 0) {
    console.log(`typecheck ${dir} (declarations): FAILED`);
    process.exit(1);
  }
}

const results = [];
// Two at a time: CI has two cores.
for (let i = 0; i < projects.length; i += 2) {
  const pair = projects.slice(i, i + 2);
  const codes = await Promise.all(pair.map((project) => tsc(['--noEmit', '-p', project])));
  results.push(...pair.map((project, index) => ({ project, code: codes[index] })));
}
for (const r of results) console.log(`typecheck ${r.project}: ${r.code === 0 ? 'ok' : 'FAILED'}`);
process.exit(results.some((r) => r.code !== 0) ? 1 : 0);
