// `npm run test:mutation` (issue 26, ADR 144): StrykerJS over the spec-bearing code, then the score
// per module and every surviving mutant of a spec constant file. Stryker 10 needs Node 22+: on an
// older Node it runs on the Node 24 that `npm test` uses (from the npm registry). `--json` prints
// the figures as JSON. Not part of `npm test` (tens of minutes on two cores).
// `npm run test:mutation -- <file or folder>…` mutates only those (source files; tests never).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { ensureDependencies } from './lib/ensure-deps.mjs';
import { node24 } from './lib/node-lines.mjs';
import { elapsed, run } from './lib/run.mjs';

/** Files whose constants the specs state: a mutant surviving there is a spec value no test holds. */
const SPEC_CONSTANT_FILES = [
  'packages/contracts/src/gateway-constants.ts',
  'packages/contracts/src/messages.ts',
  'packages/contracts/src/plans.ts',
  'packages/contracts/src/plan-claims.ts',
  'packages/checkout/src/methods/apple-pay/method.ts',
  'packages/checkout/src/methods/google-pay/method.ts',
  'packages/checkout/src/methods/paypal/method.ts',
  'packages/checkout/src/methods/card/method.ts',
  'packages/checkout/src/methods/redirect/method.ts',
];

const json = process.argv.includes('--json');
/** Files or folders named on the command line: only their source files are mutated. */
const only = process.argv
  .slice(2)
  .filter((arg) => !arg.startsWith('--'))
  .map((path) => path.replace(/\/$/, ''));
for (const path of only)
  if (!existsSync(path)) {
    console.error(`test:mutation: no file or folder ${path}`);
    process.exit(2);
  }
const mutateArgs = only.length
  ? [
      '--mutate',
      [...only.map((path) => (statSync(path).isDirectory() ? `${path}/**/*.ts` : path)), '!**/*.test.ts', '!**/*.test.tsx'].join(','),
    ]
  : [];
const started = Date.now();
await ensureDependencies();
const node = Number(process.versions.node.split('.')[0]) >= 22 ? process.execPath : await node24();
const code = await run(node, ['node_modules/@stryker-mutator/core/bin/stryker.js', 'run', 'stryker.config.mjs', ...mutateArgs], {
  stdio: json ? ['ignore', 'ignore', 'inherit'] : 'inherit',
});
if (code !== 0) process.exit(code);

const report = JSON.parse(readFileSync('.cache/mutation/mutation.json', 'utf8'));
const moduleOf = (file) =>
  file.replace(/\/[^/]+$/, '').replace(/^(apps\/server\/src\/modules\/|packages\/[^/]+\/src\/)/, (prefix) => prefix);
const modules = new Map();
const surviving = [];
for (const [file, { mutants }] of Object.entries(report.files)) {
  const name = moduleOf(file);
  const tally = modules.get(name) ?? { killed: 0, survived: 0, noCoverage: 0, timeout: 0, total: 0 };
  for (const mutant of mutants) {
    if (mutant.status === 'Killed') tally.killed += 1;
    else if (mutant.status === 'Timeout') tally.timeout += 1;
    else if (mutant.status === 'Survived') tally.survived += 1;
    else if (mutant.status === 'NoCoverage') tally.noCoverage += 1;
    else continue;
    tally.total += 1;
    if (SPEC_CONSTANT_FILES.includes(file) && (mutant.status === 'Survived' || mutant.status === 'NoCoverage'))
      surviving.push({ file, line: mutant.location.start.line, mutator: mutant.mutatorName, replacement: mutant.replacement });
  }
  modules.set(name, tally);
}
const rows = [...modules].map(([module, t]) => ({
  module,
  ...t,
  score: t.total ? Math.round((1000 * (t.killed + t.timeout)) / t.total) / 10 : 100,
}));
if (json) {
  console.log(
    JSON.stringify({ duration_s: Math.round((Date.now() - started) / 1000), modules: rows, surviving_spec_constants: surviving }, null, 2),
  );
} else {
  console.log('\nMutation score per module (killed + timed out / all covered and uncovered mutants):');
  for (const row of rows)
    console.log(
      `  ${row.score.toFixed(1).padStart(5)} %  ${row.module}  (${row.killed + row.timeout}/${row.total}, ${row.survived} survived, ${row.noCoverage} not covered)`,
    );
  console.log(`\nSurviving mutants in spec constant files: ${surviving.length}`);
  for (const s of surviving) console.log(`  ${s.file}:${s.line} ${s.mutator} → ${JSON.stringify(s.replacement).slice(0, 80)}`);
  console.log(`\ntest:mutation took ${elapsed(started)}`);
}
