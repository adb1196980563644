import { defineConfig } from 'vitest/config';

/**
 * The tests `npm run test:mutation` runs against each mutant (ADR 144): the fast ones beside the
 * spec-bearing code, without processes, databases or browsers, so one mutant costs a second.
 */
export default defineConfig({
  test: {
    projects: [
      {
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
