// Type-checks every workspace (and the e2e suite) with its own tsconfig, in parallel.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

const projects = [
  'packages/contracts',
  'apps/gateway',
  'apps/server',
  'apps/web',
  'e2e',
  'packages/insights',
  'packages/analysis',
  'packages/checkout',
  'packages/secure-fields',
].filter((dir) => existsSync(`${dir}/tsconfig.json`));

const run = (project) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, ['node_modules/typescript/bin/tsc', '--noEmit', '--pretty', '-p', project], { stdio: 'inherit' });
    child.on('exit', (code) => resolve({ project, code }));
  });

const results = [];
// Two at a time: CI has two cores.
for (let i = 0; i < projects.length; i += 2) {
  results.push(...(await Promise.all(projects.slice(i, i + 2).map(run))));
}
const failed = results.filter((r) => r.code !== 0);
for (const r of results) console.log(`typecheck ${r.project}: ${r.code === 0 ? 'ok' : 'FAILED'}`);
process.exit(failed.length ? 1 : 0);
