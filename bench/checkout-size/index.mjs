// Gzip size of the parent checkout bundle (drop-in + card form) beside the same figure for two
// anchors, all bundled in this run with the same esbuild settings (ESM, minified, browser).
//   roots:    packages/checkout (src/index.ts: client, drop-in, card form; no React)
//   payrails: @payrails/web-sdk (its whole entry: client, drop-in, card form)
//   adyen:    @adyen/adyen-web AdyenCheckout + Dropin + Card (tree-shaken)
// Usage: node bench/checkout-size/index.mjs [--json]   (npm run bench:checkout-size [-- --json])
import { Buffer } from 'node:buffer';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** The budget of ADR 040: the parent bundle at most 25 KB gzip. */
const BUDGET_GZIP_BYTES = 25 * 1024;
const root = new URL('../../', import.meta.url).pathname;
const json = process.argv.includes('--json');

const targets = {
  roots: { contents: "export * from './packages/checkout/src/index.ts';", version: '(this repo)' },
  payrails: { contents: "export * from '@payrails/web-sdk';", version: '@payrails/web-sdk' },
  adyen: { contents: "export { AdyenCheckout, Dropin, Card } from '@adyen/adyen-web';", version: '@adyen/adyen-web' },
};

async function versionOf(name) {
  if (!name.startsWith('@')) return name;
  const { readFile } = await import('node:fs/promises');
  const manifest = JSON.parse(await readFile(new URL(`../../node_modules/${name}/package.json`, import.meta.url), 'utf8'));
  return `${name}@${manifest.version}`;
}

async function measure(contents) {
  const result = await build({
    stdin: { contents, resolveDir: root, sourcefile: 'entry.ts', loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2020',
    write: false,
    logLevel: 'silent',
    // Stylesheets are not JavaScript: count scripts only, for every target alike.
    loader: { '.css': 'empty', '.svg': 'dataurl', '.png': 'dataurl' },
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const code = Buffer.concat(
    result.outputFiles.filter((file) => file.path.endsWith('.js') || file.path === '<stdout>').map((file) => Buffer.from(file.contents)),
  );
  return { minifiedBytes: code.length, gzipBytes: gzipSync(code, { level: 9 }).length };
}

const figures = {};
for (const [name, target] of Object.entries(targets)) {
  figures[name] = { package: await versionOf(target.version), ...(await measure(target.contents)) };
}
const anchorsMean = (figures.payrails.gzipBytes + figures.adyen.gzipBytes) / 2;
if (!json) {
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log('checkout parent bundle (drop-in + card form), esbuild ESM minified, gzip -9');
  for (const [name, figure] of Object.entries(figures))
    console.log(
      `  ${name.padEnd(9)} ${kb(figure.gzipBytes).padStart(9)} gzip  ${kb(figure.minifiedBytes).padStart(9)} min  ${figure.package}`,
    );
  console.log(
    `  roots / anchors' mean: ${((figures.roots.gzipBytes / anchorsMean) * 100).toFixed(0)}% (target ≤ 33%); budget ${kb(BUDGET_GZIP_BYTES)}: ${figures.roots.gzipBytes <= BUDGET_GZIP_BYTES ? 'within' : 'OVER'}`,
  );
}
console.log(JSON.stringify(figures));
if (figures.roots.gzipBytes > BUDGET_GZIP_BYTES) process.exitCode = 1;
