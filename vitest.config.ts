import { defineConfig } from 'vitest/config';
import { preactRuntime } from './apps/web/vite.config.ts';

/**
 * Packages of the web app that import `react` (or Preact itself), directly or through another, by
 * their node_modules path; scripts/ui-runtime.test.ts checks the list against the lockfile.
 */
export const WEB_REACT_DEPENDENTS =
  /\/node_modules\/(?:preact|@testing-library\/preact|react-router|react-i18next|react-hook-form|@hookform\/resolvers|recharts|react-redux|@reduxjs\/toolkit|use-sync-external-store|zustand)\//;

/** Unit and service tests beside the code; browser journeys live in e2e/ (Playwright). */
export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          // The played Kubernetes description is its own step of npm test (vitest.kube.config.ts).
          exclude: ['packages/analysis/**', '**/node_modules/**', 'apps/server/src/kube-play.test.ts'],
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
        // The runtime the web build ships (ADR 125): Preact through preact/compat, no React.
        plugins: [preactRuntime({ dev: false })],
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          setupFiles: ['apps/web/src/test-setup.ts'],
          // Preact and every dependency that imports `react` go through Vite too, so they share one
          // Preact and reach the same alias (Node would otherwise load React itself for them).
          server: { deps: { inline: [WEB_REACT_DEPENDENTS] } },
        },
      },
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
