import { defineConfig } from 'vitest/config';

/**
 * The Kubernetes description played with podman (apps/server/src/kube-play.test.ts, ADR 178): its own
 * step of `npm test`, after the build, since it builds the images and runs the whole stack.
 */
export default defineConfig({
  test: {
    environment: 'node',
    include: ['apps/server/src/kube-play.test.ts'],
    testTimeout: 600_000,
    hookTimeout: 1_500_000,
  },
});
