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
          include: ['packages/*/src/**/*.test.ts', 'apps/server/src/**/*.test.ts', 'apps/gateway/src/**/*.test.ts', 'scripts/**/*.test.ts'],
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
