// Bundles a Node app (server or gateway) into one ESM file with esbuild. Our workspace packages
// (@roots/*, TypeScript source) are bundled in; npm packages stay external and load from node_modules.
// Usage: node ../../scripts/build-node.mjs src/server.ts dist/server.js
import { relative } from 'node:path';
import { build } from 'esbuild';

const [entry = 'src/server.ts', outfile = 'dist/server.js'] = process.argv.slice(2);

/** Externalises every bare import except our own workspace packages. */
const externalNpmPackages = {
  name: 'external-npm-packages',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) => {
      // JSON data from npm packages is bundled: Node's ESM loader would need an import attribute.
      if (args.path.endsWith('.json')) return undefined;
      // The analysis engine loads its worker file from its own dist/: keep it a runtime import.
      if (args.path === '@roots/analysis') return { path: args.path, external: true };
      if (args.path.startsWith('@roots/') || args.path.startsWith('node:')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

await build({
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [externalNpmPackages],
});
// Named from the repository's root, so the three apps' lines tell apart (apps/server/dist/server.js).
console.log(`built ${relative(new URL('..', import.meta.url).pathname, `${process.cwd()}/${outfile}`)}`);
