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
  'bench/web',
].filter((dir) => existsSync(`${dir}/tsconfig.json`));

const run = (project) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, ['node_modules/typescript/bin/tsc', '--noEmit', '--pretty', '-p', project], { stdio: 'inherit' });
    child.on('exit', (code) => resolve({ project, code }));
  });

// Packages whose consumers read their types from the emitted declarations (dist/*.d.ts) are
// built first, so a fresh clone type-checks before `npm run build` has ever run.
const emitsDeclarations = ['packages/analysis'].filter((dir) => existsSync(`${dir}/tsconfig.build.json`));
for (const dir of emitsDeclarations) {
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, ['node_modules/typescript/bin/tsc', '--pretty', '-p', `${dir}/tsconfig.build.json`], {
      stdio: 'inherit',
    });
    child.on('exit', resolve);
  });
  if (code !== 0) {
    console.log(`typecheck ${dir} (declarations): FAILED`);
    process.exit(1);
  }
}

const results = [];
// Two at a time: CI has two cores.
for (let i = 0; i < projects.length; i += 2) {
  results.push(...(await Promise.all(projects.slice(i, i + 2).map(run))));
}
const failed = results.filter((r) => r.code !== 0);
for (const r of results) console.log(`typecheck ${r.project}: ${r.code === 0 ? 'ok' : 'FAILED'}`);
process.exit(failed.length ? 1 : 0);
