// `npm test`: install what the tests need (npm packages; Debian chromium, postgresql, poppler-utils, podman,
// runc, debootstrap, catatonit; promtool), start a throw-away PostgreSQL cluster, then run lint, format,
// type-check, build, unit/service tests (on PGlite and PostgreSQL), the container images with the Kubernetes
// description played by podman, and the browser tests (product journeys, checkout journeys).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { ensureDependencies } from './lib/ensure-deps.mjs';
import { startPostgresCluster } from './lib/postgres-cluster.mjs';
import { elapsed, npmCommand, run } from './lib/run.mjs';
import { ensureSystemPackages } from './lib/system-packages.mjs';
import { checkNode, node24 } from './lib/node-lines.mjs';
import { ensurePromtool } from './lib/promtool.mjs';

const started = Date.now();
const results = [];
let postgres;

async function step(name, command, args, env = {}) {
  const stepStart = Date.now();
  console.log(`\n› ${name}`);
  const code = await run(command, args, { env: { ...process.env, ...env } });
  results.push({ name, ok: code === 0, time: elapsed(stepStart) });
  return code === 0;
}

function readCounts(file, pick) {
  try {
    return pick(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return { passed: 0, failed: 0 };
  }
}

try {
  checkNode();
  await ensureDependencies();
  await ensureSystemPackages();
  // Prometheus's rule checker: the alert rules in ops/prometheus are tested with it (scripts/alerting.test.ts).
  process.env.PROMTOOL = await ensurePromtool();
  postgres = await startPostgresCluster();
  process.on('exit', () => postgres?.stop());
  mkdirSync('.cache', { recursive: true });
  for (const report of ['vitest.json', 'vitest-node24.json', 'vitest-kube.json', 'playwright.json', 'playwright-checkout.json'])
    rmSync(`.cache/${report}`, { force: true });

  const npx = (args) => [npmCommand, ['exec', '--', ...args]];
  await step('lint', ...npx(['eslint', '--max-warnings=0', '.']));
  await step('import cycles (type imports included)', process.execPath, ['scripts/import-cycles.mjs']);
  await step('format', ...npx(['prettier', '--check', '--log-level=warn', '.']));
  await step('type-check', process.execPath, ['scripts/typecheck.mjs']);
  // Built first: the analysis worker pool and the checkout journeys run built code.
  const built = await step('build', npmCommand, ['run', 'build', '--silent']);
  await step(
    'unit and service tests (PGlite + PostgreSQL)',
    ...npx(['vitest', 'run', '--reporter=default', '--reporter=json', '--outputFile.json=.cache/vitest.json']),
    {
      TEST_DATABASE_URL: postgres.url,
    },
  );
  // The current LTS line, even where this machine's own Node is older (issue 26): the APIs fuzzed, a
  // purchase with renewals and dunning against the gateway, and face analysis with its real model.
  const lts = await node24();
  await step(
    `Node ${execFileSync(lts, ['--version']).toString().trim()}: APIs, purchases and renewals, face analysis`,
    lts,
    [
      'node_modules/vitest/vitest.mjs',
      'run',
      '--reporter=default',
      '--reporter=json',
      '--outputFile.json=.cache/vitest-node24.json',
      'scripts/node-line.test.ts',
      'scripts/api-fuzz.test.ts',
      'apps/server/src/modules/subscriptions/subscriptions.http.test.ts',
      'apps/server/src/modules/reports/reports.http.test.ts',
    ],
    { TEST_DATABASE_URL: postgres.url },
  );
  if (built) {
    // The images built from the project's Debian base and the Kubernetes description played with podman
    // (ADRs 177, 178); the test prints each phase's time (`[kube] …`).
    await step(
      'container images + Kubernetes description played with podman (PostgreSQL, 2 servers, gateway, analyzer)',
      ...npx([
        'vitest',
        'run',
        '-c',
        'vitest.kube.config.ts',
        '--reporter=default',
        '--reporter=json',
        '--outputFile.json=.cache/vitest-kube.json',
      ]),
    );
    await step('browser tests (Playwright, Debian chromium)', ...npx(['playwright', 'test']), { TEST_DATABASE_URL: postgres.url });
    await step('checkout journeys (Playwright, own gateway + merchant site)', ...npx(['playwright', 'test', '-c', 'e2e/checkout']));
  }
} catch (error) {
  results.push({ name: 'set-up', ok: false, time: elapsed(started) });
  console.error(`npm test set-up failed: ${error instanceof Error ? error.message : error}`);
} finally {
  postgres?.stop();
}

// Every step's tests count in the closing line, the Node 24 step's too (issue 33).
const vitestCounts = (file) => readCounts(file, (r) => ({ passed: r.numPassedTests, failed: r.numFailedTests }));
const unitRuns = ['.cache/vitest.json', '.cache/vitest-node24.json', '.cache/vitest-kube.json'].map(vitestCounts);
const unit = { passed: unitRuns.reduce((n, r) => n + r.passed, 0), failed: unitRuns.reduce((n, r) => n + r.failed, 0) };
const playwrightCounts = (file) =>
  existsSync(file)
    ? readCounts(file, (r) => ({ passed: r.stats.expected, failed: r.stats.unexpected + r.stats.flaky }))
    : { passed: 0, failed: 0 };
const e2eRuns = ['.cache/playwright.json', '.cache/playwright-checkout.json'].map(playwrightCounts);
const e2e = { passed: e2eRuns.reduce((n, r) => n + r.passed, 0), failed: e2eRuns.reduce((n, r) => n + r.failed, 0) };
console.log('\nSummary');
for (const r of results) console.log(`  ${r.ok ? 'ok  ' : 'FAIL'}  ${r.name} (${r.time})`);
const failedSteps = results.filter((r) => !r.ok).length;
console.log(`  total ${elapsed(started)}`);
console.log(
  `${unit.passed + e2e.passed} passed, ${unit.failed + e2e.failed + (failedSteps && !(unit.failed + e2e.failed) ? failedSteps : 0)} failed`,
);
process.exit(failedSteps ? 1 : 0);
