// Landing-page weight and Lighthouse performance of the built product (issue 7's targets).
// Usage: npm run bench:web [-- --runs 3] [-- --web-dist DIR] [-- --json]
//   --runs N       Lighthouse runs per page; the median score's run is reported (default 3)
//   --web-dist DIR use this web build instead of building apps/web into a temporary folder
//   --json         the last line is one JSON object
// Builds apps/web (and the server and gateway bundles if they are missing), starts the built
// gateway and server on free ports with a throw-away data folder, then:
//   - landing JS: every script Chromium requests loading /{slug}/ with an empty cache, gzipped
//   - Lighthouse performance score, LCP, FCP, TBT and CLS for the landing and the paywall,
//     Lighthouse's mobile emulation in Debian's Chromium with the repo's launch flags
// Targets: landing JS ≤ 80 KB gzip, performance ≥ 95.
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CHROMIUM_PATH } from '../../e2e/support/chromium';
import { measureLandingJs } from './landing-js';
import { measurePerformance, type PerformanceFigures } from './lighthouse';
import { buildProduct, startProduct } from './product';

/** Issue 7: the JavaScript the landing route loads, at most 80 KB gzip. */
export const LANDING_JS_BUDGET_GZIP_BYTES = 80 * 1024;
/** Issue 7: Lighthouse performance score at least 95 on the landing and the paywall. */
export const PERFORMANCE_TARGET_SCORE = 95;

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    'web-dist': { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a whole number ≥ 1');
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

const webDistDir = values['web-dist'] ? resolve(values['web-dist']) : buildProduct();
const product = await startProduct(webDistDir);
try {
  const landingUrl = `${product.url}/${product.slug}/`;
  const paywallUrl = `${product.url}/${product.slug}/subscription`;
  const landingJs = await measureLandingJs(landingUrl, CHROMIUM_PATH);
  const pages: Record<'landing' | 'paywall', PerformanceFigures> = {
    landing: await measurePerformance(landingUrl, CHROMIUM_PATH, runs),
    paywall: await measurePerformance(paywallUrl, CHROMIUM_PATH, runs),
  };

  console.log(`landing JS (${landingUrl}, first load, ${landingJs.scripts.length} scripts):`);
  for (const script of landingJs.scripts) {
    console.log(`  ${script.file.padEnd(56)} ${kb(script.bytes).padStart(9)}  gzip ${kb(script.gzipBytes).padStart(8)}`);
  }
  const withinBudget = landingJs.gzipBytes <= LANDING_JS_BUDGET_GZIP_BYTES;
  console.log(
    `  total ${kb(landingJs.bytes)}, gzip ${kb(landingJs.gzipBytes)} (${landingJs.gzipBytes} B; budget ${kb(LANDING_JS_BUDGET_GZIP_BYTES)}: ${withinBudget ? 'within' : 'OVER'}), as served ${kb(landingJs.transferBytes)}`,
  );
  for (const [name, figures] of Object.entries(pages)) {
    console.log(
      `lighthouse ${name.padEnd(8)} performance ${figures.score} (runs ${figures.runs.join(', ')}; target ≥ ${PERFORMANCE_TARGET_SCORE}: ${figures.score >= PERFORMANCE_TARGET_SCORE ? 'met' : 'MISSED'})  LCP ${figures.lcpMs} ms  FCP ${figures.fcpMs} ms  TBT ${figures.tbtMs} ms  CLS ${figures.cls}`,
    );
  }
  if (values.json) {
    console.log(
      JSON.stringify({
        landingJs: {
          gzipBytes: landingJs.gzipBytes,
          bytes: landingJs.bytes,
          transferBytes: landingJs.transferBytes,
          budgetGzipBytes: LANDING_JS_BUDGET_GZIP_BYTES,
          withinBudget,
          scripts: landingJs.scripts,
        },
        lighthouse: { targetScore: PERFORMANCE_TARGET_SCORE, ...pages },
      }),
    );
  }
} finally {
  await product.stop();
  if (!values['web-dist']) rmSync(webDistDir, { recursive: true, force: true });
}
