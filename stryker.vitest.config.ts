import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Stryker runs these tests in a copy of the repository, but `@roots/contracts` resolves through the
 * workspace link to the original sources, where no mutant is: a test importing the package by its
 * name could never kill a contracts mutant (ADR 144's limit). The package name resolves here, in
 * the copy, instead.
 */
const contracts = fileURLToPath(new URL('./packages/contracts/src/', import.meta.url));
const resolve = {
  alias: [
    { find: /^@roots\/contracts$/, replacement: `${contracts}index.ts` },
    { find: /^@roots\/contracts\/(.+)$/, replacement: `${contracts}$1.ts` },
  ],
};

/**
 * The tests `npm run test:mutation` runs against each mutant (ADR 144): the fast ones beside the
 * spec-bearing code, without processes, databases or browsers, so one mutant costs a second.
 */
export default defineConfig({
  test: {
    projects: [
      {
        resolve,
        test: {
          name: 'mutation-node',
          environment: 'node',
          include: [
            'packages/contracts/src/**/*.test.ts',
            'apps/server/src/modules/lifecycle/subscription-state.test.ts',
            'apps/server/src/modules/charges/charge-keys.test.ts',
            'apps/server/src/modules/charges/guarantee.test.ts',
            'apps/server/src/modules/reports/report-state.test.ts',
          ],
        },
      },
      {
        resolve,
        test: {
          name: 'mutation-checkout',
          environment: 'jsdom',
          include: ['packages/checkout/src/**/*.test.ts'],
        },
      },
    ],
    testTimeout: 30_000,
  },
});
