import { readdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { preact } from '@preact/preset-vite';
import { defineConfig, type Plugin, type PluginOption } from 'vite';

const SERVER_URL = process.env.ROOTS_SERVER_URL ?? 'http://127.0.0.1:3000';

/**
 * Every path the product server answers outside the SPA (`/{slug}/…`): the dev server passes them
 * to it, so the paywall, the reports and tracking work under `npm run dev` (issue 24: only `/api`
 * and `/healthz` were passed). `scripts/dev-proxy.test.ts` checks the list against the server's routes.
 */
export const SERVER_PATHS = [
  '/api',
  '/healthz',
  '/readyz',
  '/metrics',
  '/init',
  '/subs',
  '/rec',
  '/report',
  '/pdf-report',
  '/event',
  '/remote-addr',
  '/subscriptions',
  '/dev',
] as const;
const SLUG = process.env.PRODUCT_SLUG ?? 'roots';

/**
 * One UI runtime (ADR 125): the production build, the dev server and the jsdom unit tests all render
 * with Preact 10 through `preact/compat` (react-dom alone was over half of the landing's JavaScript
 * budget, ADR 081). `@preact/preset-vite` compiles JSX for Preact and resolves `react`, `react-dom`
 * and the JSX runtimes to Preact's. The dev server (`dev: true`) adds fast refresh (prefresh) and
 * `preact/debug`'s warnings; the build and the unit tests run without them. Nothing stands in for
 * React 19 hooks: code that needs one Preact lacks fails the build and the unit tests alike.
 * The root `vitest.config.ts` runs the web tests with this same function.
 */
export function preactRuntime({ dev }: { dev: boolean }): PluginOption {
  return [preact({ prefreshEnabled: dev, devToolsEnabled: dev, prerender: { enabled: false } }), reactRouterProductionBuild()];
}

/** React Router 7's own folder (apps/web depends on it). */
const REACT_ROUTER_DIR = dirname(createRequire(import.meta.url).resolve('react-router/package.json'));

/**
 * React Router 7 resolves to its development files under every condition (its framework plugin picks
 * the production ones); they differ only in `ENABLE_DEV_WARNINGS` (console warnings, a "Hey developer"
 * line on its default error screen). Build, dev server and tests all take the production files.
 */
function reactRouterProductionBuild(): Plugin {
  return {
    name: 'roots:react-router-production',
    config: () => ({
      resolve: {
        alias: [
          { find: /^react-router$/, replacement: join(REACT_ROUTER_DIR, 'dist/production/index.mjs') },
          { find: /^react-router\/dom$/, replacement: join(REACT_ROUTER_DIR, 'dist/production/dom-export.mjs') },
        ],
      },
    }),
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

/**
 * Under `npm run dev` the page gets the same public config the server renders into index.html
 * (`GET /api/config`: plans' copy, gateway origin, legal links), never a second copy of it. The
 * server may still be starting when the first page is asked for: it is waited for up to a minute.
 */
function serverConfigInDev(): Plugin {
  return {
    name: 'roots-server-config',
    apply: 'serve',
    async transformIndexHtml(html) {
      const deadline = Date.now() + 60_000;
      for (;;) {
        try {
          const response = await fetch(`${SERVER_URL}/api/config`);
          if (response.ok) {
            const safe = (await response.text()).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
            return html.replace('<!--roots:head-->', `<script type="application/json" id="roots-config">${safe}</script>`);
          }
        } catch {
          // not listening yet
        }
        if (Date.now() > deadline) throw new Error(`the product server at ${SERVER_URL} did not answer /api/config (ROOTS_SERVER_URL)`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    },
  };
}

/**
 * React Router 7 feature-detects React 19's `use` and `useOptimistic` (`React[name]`, then a fallback
 * when it is undefined); `preact/compat` has neither, so the bundler reports each import as "always
 * undefined". That is the case React Router handles, not a fault: these two, from React Router's own
 * files, are dropped; every other warning is printed.
 */
const REACT_19_FEATURE_DETECTS = /Import `(?:use|useOptimistic)` will always be undefined .*preact\/compat/;

type BuildLog = { code?: string; message: string };

/** `onLog`, not `onwarn`: the Preact preset sets `onwarn` itself, and a plugin's wins over ours. */
export function onBuildLog(level: string, log: BuildLog, next: (level: 'warn' | 'info' | 'debug', log: BuildLog) => void): void {
  if (level === 'warn' && log.code === 'IMPORT_IS_UNDEFINED' && REACT_19_FEATURE_DETECTS.test(log.message)) return;
  next(level as 'warn' | 'info' | 'debug', log);
}

/**
 * The build is slug-independent: assets are referenced relative to a <base href="/{slug}/"> that
 * the server injects into index.html, so one build serves any configured product slug.
 */
export default defineConfig(({ command }) => ({
  base: command === 'build' ? './' : `/${SLUG}/`,
  // The build prints warnings and errors only (not one line per chunk); `bench:web` measures sizes.
  logLevel: command === 'build' ? 'warn' : 'info',
  plugins: command === 'build' ? [preactRuntime({ dev: false }), precompress()] : [preactRuntime({ dev: true }), serverConfigInDev()],
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    sourcemap: true,
    target: 'es2022',
    rolldownOptions: { onLog: onBuildLog },
  },
  server: {
    host: '127.0.0.1',
    port: Number(process.env.WEB_DEV_PORT ?? 5173),
    strictPort: true,
    proxy: Object.fromEntries(SERVER_PATHS.map((path) => [path, SERVER_URL])),
  },
}));
