// @ts-check
/**
 * Mutation testing of the spec-bearing code (issue 26, ADR 144): `npm run test:mutation`.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'stryker.vitest.config.ts' },
  plugins: ['@stryker-mutator/vitest-runner'],
  mutate: [
    // contracts: plans, claims, messages, gateway constants, the disclosure next to the pay button
    'packages/contracts/src/plans.ts',
    'packages/contracts/src/plan-claims.ts',
    'packages/contracts/src/messages.ts',
    'packages/contracts/src/gateway-constants.ts',
    'packages/contracts/src/disclosure.ts',
    // the checkout core: execution machine, polling, collect validation, methods' request constants
    'packages/checkout/src/core/execution/*.ts',
    'packages/checkout/src/core/config/collect-validation.ts',
    'packages/checkout/src/methods/*/method.ts',
    // the subscription lifecycle's state machine, the charge keys and guarantee, the report statuses
    'apps/server/src/modules/lifecycle/subscription-state.ts',
    'apps/server/src/modules/charges/charge-keys.ts',
    'apps/server/src/modules/charges/guarantee.ts',
    'apps/server/src/modules/reports/report-state.ts',
    // Tests are never mutated (issue 33: the checkout core's glob took its tests too, and their
    // mutants diluted the score).
    '!**/*.test.ts',
    '!**/*.test.tsx',
  ],
  coverageAnalysis: 'perTest',
  ignoreStatic: false,
  concurrency: 2,
  timeoutMS: 20_000,
  reporters: ['progress', 'clear-text', 'json'],
  jsonReporter: { fileName: '.cache/mutation/mutation.json' },
  tempDirName: '.cache/stryker-tmp',
  cleanTempDir: 'always',
  thresholds: { high: 80, low: 60, break: null },
};
