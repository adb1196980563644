import { defineConfig } from 'tsup';

// One ESM bundle; our workspace packages (TypeScript source) are bundled in, npm packages stay external.
export default defineConfig({
  entry: ['src/server.ts'],
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  clean: true,
  noExternal: [/^@roots\//],
});
