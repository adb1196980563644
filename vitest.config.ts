import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/** Unit and service tests beside the code; browser journeys live in e2e/ (Playwright). */
export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          exclude: ['packages/analysis/**', '**/node_modules/**'],
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/server/src/**/*.test.ts',
            'apps/gateway/src/**/*.test.ts',
            'apps/analyzer/src/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
        },
      },
      {
        // Model loading and inference are CPU-bound: one file at a time, generous timeouts.
        extends: true,
        test: {
          name: 'analysis',
          environment: 'node',
          include: ['packages/analysis/src/**/*.test.ts'],
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
          env: { ROOTS_ANALYSIS_TEST_HOOKS: '1' },
        },
      },
      {
        extends: true,
        plugins: [react()],
        test: { name: 'web', environment: 'jsdom', include: ['apps/web/src/**/*.test.{ts,tsx}'] },
      },
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
