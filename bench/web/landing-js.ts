import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { CHROMIUM_FLAGS } from '../../e2e/support/chromium';

/** One script the browser fetched on the landing's first load. */
export type LoadedScript = { file: string; bytes: number; gzipBytes: number; transferBytes: number };

export type LandingJs = { scripts: LoadedScript[]; bytes: number; gzipBytes: number; transferBytes: number };

/**
 * Opens `url` in Debian's Chromium with an empty cache and records every script it requests until
 * the network is idle and the landing screen is shown (the route's lazy chunk included). Each
 * script's size is counted as the browser received it (`transferBytes`, body only) and gzipped at
 * level 9 (`gzipBytes`), so the figure does not depend on whether the server compresses.
 */
export async function measureLandingJs(url: string, chromiumPath: string): Promise<LandingJs> {
  const browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_FLAGS });
  try {
    const page = await browser.newPage();
    const pending: Array<Promise<LoadedScript>> = [];
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      pending.push(
        (async () => {
          const body = await response.body();
          const sizes = await response.request().sizes();
          return {
            file: new URL(response.url()).pathname,
            bytes: body.length,
            gzipBytes: gzipSync(body, { level: 9 }).length,
            transferBytes: sizes.responseBodySize,
          };
        })(),
      );
    });
    await page.goto(url, { waitUntil: 'networkidle' });
    await page.getByTestId('landing-screen').waitFor({ state: 'visible' });
    const scripts = (await Promise.all(pending)).sort((a, b) => b.gzipBytes - a.gzipBytes);
    const sum = (key: 'bytes' | 'gzipBytes' | 'transferBytes') => scripts.reduce((total, script) => total + script[key], 0);
    return { scripts, bytes: sum('bytes'), gzipBytes: sum('gzipBytes'), transferBytes: sum('transferBytes') };
  } finally {
    await browser.close();
  }
}
