import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_FLAGS } from '../../e2e/support/chromium';

/** Lighthouse's performance figures for one page (median run of several). */
export type PerformanceFigures = { score: number; lcpMs: number; fcpMs: number; tbtMs: number; cls: number; runs: number[] };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Lighthouse's performance category for `url` in Debian's Chromium, with Lighthouse's default
 * mobile emulation (Moto G Power screen, simulated slow 4G and 4× CPU slowdown). Each run gets a
 * fresh browser; the run with the median score is reported, with every run's score.
 */
export async function measurePerformance(url: string, chromiumPath: string, runs: number): Promise<PerformanceFigures> {
  const results: Array<Omit<PerformanceFigures, 'runs'>> = [];
  for (let run = 0; run < runs; run += 1) {
    const chrome = await chromeLauncher.launch({ chromePath: chromiumPath, chromeFlags: CHROMIUM_FLAGS, logLevel: 'error' });
    try {
      const answer = await lighthouse(url, { port: chrome.port, logLevel: 'error', output: 'json', onlyCategories: ['performance'] });
      if (!answer) throw new Error(`lighthouse gave no result for ${url}`);
      const { lhr } = answer;
      if (lhr.runtimeError) throw new Error(`lighthouse ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
      const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
      results.push({
        score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
        lcpMs: Math.round(audit('largest-contentful-paint')),
        fcpMs: Math.round(audit('first-contentful-paint')),
        tbtMs: Math.round(audit('total-blocking-time')),
        cls: Math.round(audit('cumulative-layout-shift') * 1000) / 1000,
      });
    } finally {
      await chrome.kill();
    }
  }
  const middle = median(results.map((result) => result.score));
  const chosen = results.find((result) => result.score === middle)!;
  return { ...chosen, runs: results.map((result) => result.score) };
}
