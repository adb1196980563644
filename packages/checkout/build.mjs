/* global URL, console */
// Bundles the parent SDK (drop-in + card form, no React) for browsers: dist/roots-checkout.js (ESM,
// minified). The size bench (bench/checkout-size) and the e2e merchant page use it.
import { build } from 'esbuild';

const result = await build({
  entryPoints: ['src/index.ts'],
  absWorkingDir: new URL('.', import.meta.url).pathname,
  outfile: 'dist/roots-checkout.js',
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2022',
  platform: 'browser',
  sourcemap: true,
  metafile: true,
  logLevel: 'warning',
});
const bytes = Object.values(result.metafile.outputs).find((output) => output.entryPoint)?.bytes ?? 0;
console.info(`built packages/checkout/dist/roots-checkout.js (${bytes} bytes minified)`);
