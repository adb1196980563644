import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Alias, type Plugin } from 'vite';

const SERVER_URL = process.env.ROOTS_SERVER_URL ?? 'http://127.0.0.1:3000';
const SLUG = process.env.PRODUCT_SLUG ?? 'roots';

/** Id of the module that stands in for `react` in the production build. */
const REACT_SHIM_ID = '\0roots:react-on-preact';
const REACT_SHIM_FILE = fileURLToPath(new URL('./build/react-on-preact.js', import.meta.url));

/**
 * The production build renders with Preact through `preact/compat` (ADR 081): react-dom alone was
 * over half of the landing's JavaScript budget. `preact/compat` lacks three React 19 hooks our
 * dependencies import by name, so `react` resolves to a small module that adds them:
 * - `useOptimistic`: React Router's RouterProvider only calls its setter with `useTransitions`,
 *   which this app never turns on, so the state is passed through unchanged;
 * - `useEffectEvent`: a stable function that always calls the latest callback;
 * - `use`: context reads only (promises would need Suspense-for-data, which nothing here uses).
 * It also makes numeric style values that React writes without a unit (`aspectRatio: 1.5`) reach the
 * DOM unit-less: Preact appends `px` to every number its own short list does not name, which turns
 * `aspect-ratio: 1.5` into an invalid `1.5px` (a responsive Recharts chart then has no height).
 * Dev server and unit tests keep React itself (fast refresh, React's own test behaviour).
 */
function reactOnPreact(): Plugin {
  return {
    name: 'roots:react-on-preact',
    enforce: 'pre',
    resolveId(source) {
      return source === 'react' ? REACT_SHIM_ID : null;
    },
    load(id) {
      return id === REACT_SHIM_ID ? readFile(REACT_SHIM_FILE, 'utf8') : null;
    },
  };
}

/** Files worth compressing: text the browser fetches (images other than SVG are compressed already). */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|webmanifest)$/;

/**
 * Writes `name.br` and `name.gz` beside every compressible file of the build, once, at build time;
 * the server sends them to browsers that accept them (`@fastify/static` `preCompressed`), so no
 * request pays for compression. index.html is left out: the server renders it per product.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'roots:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      const files = (await readdir(outDir, { recursive: true })).filter((file) => COMPRESSIBLE.test(file) && file !== 'index.html');
      await Promise.all(
        files.map(async (file) => {
          const path = join(outDir, file);
          const body = await readFile(path);
          const [br, gz] = await Promise.all([
            promisify(brotliCompress)(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }),
            promisify(gzip)(body, { level: 9 }),
          ]);
          // Not worth a second file when compression saves almost nothing.
          if (br.length < body.length * 0.9) await writeFile(`${path}.br`, br);
          if (gz.length < body.length * 0.9) await writeFile(`${path}.gz`, gz);
        }),
      );
    },
  };
}

/** `react-dom` and the JSX runtimes resolve to Preact's; `react` itself goes through the shim above. */
const PREACT_ALIASES: Alias[] = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
];

/**
 * The build is slug-independent: assets are referenced relative to a <base href="/{slug}/"> that
 * the server injects into index.html, so one build serves any configured product slug.
 */
export default defineConfig(({ command }) => ({
  base: command === 'build' ? './' : `/${SLUG}/`,
  plugins: command === 'build' ? [reactOnPreact(), react(), precompress()] : [react()],
  resolve: { alias: command === 'build' ? PREACT_ALIASES : [] },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    sourcemap: true,
    target: 'es2022',
  },
  server: {
    proxy: {
      '/api': SERVER_URL,
      '/healthz': SERVER_URL,
    },
  },
}));
