import { expect, test, type Page } from '@playwright/test';

/** The gateway the browser tests start (playwright.config.ts). */
const gatewayOrigin = `http://127.0.0.1:${4100 + Number(process.env.E2E_PORT_OFFSET ?? 0)}`;

/** Directive name → its sources. */
function directivesOf(policy: string | undefined): Map<string, string[]> {
  const entries = (policy ?? '').split(';').map((part) => part.trim().split(/\s+/));
  return new Map(entries.map(([name, ...sources]) => [name ?? '', sources]));
}

/** Console messages in which Chromium reports a Content-Security-Policy refusal. */
function cspRefusals(page: Page): string[] {
  const refusals: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) refusals.push(message.text());
  });
  return refusals;
}

test.describe('security headers of the product pages (ADR 110)', () => {
  for (const [name, path, status] of [
    ['landing', '/roots/', 200],
    ['paywall', '/roots/subscription', 200],
    ['webapp', '/roots/webapp/reports', 200],
    ['404', '/no/such/page', 404],
  ] as const) {
    test(`the ${name} page carries every policy and loads without a CSP refusal`, async ({ page }) => {
      const refusals = cspRefusals(page);
      const response = await page.goto(path);
      expect(response?.status()).toBe(status);
      const headers = response?.headers() ?? {};
      const csp = directivesOf(headers['content-security-policy']);
      expect(csp.get('script-src')).toEqual(["'self'", gatewayOrigin]);
      expect(csp.get('frame-src')?.[0]).toBe(gatewayOrigin);
      expect(csp.get('connect-src')?.slice(0, 3)).toEqual(["'self'", 'blob:', gatewayOrigin]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(headers['permissions-policy']).toContain('camera=(self)');
      expect(headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
      // Served over plain http here: HSTS would be ignored, and is not sent.
      expect(headers['strict-transport-security']).toBeUndefined();
      await expect(page.locator('#root > *').first()).toBeVisible();
      await page.waitForLoadState('networkidle');
      expect(refusals).toEqual([]);
    });
  }

  test('an injected inline script does not run, and the browser reports the violation', async ({ page }) => {
    await page.goto('/roots/');
    await expect(page.getByTestId('landing-screen')).toBeVisible();
    const outcome = await page.evaluate(
      () =>
        new Promise<{ ran: boolean; directive: string }>((resolve) => {
          document.addEventListener('securitypolicyviolation', (event) =>
            resolve({ ran: 'injectedRan' in window, directive: event.effectiveDirective }),
          );
          const script = document.createElement('script');
          script.textContent = 'window.injectedRan = true;';
          document.body.append(script);
        }),
    );
    expect(outcome).toEqual({ ran: false, directive: 'script-src-elem' });
    expect(await page.evaluate(() => 'injectedRan' in window)).toBe(false);
  });

  test('a foreign site cannot frame the paywall', async ({ page, baseURL }) => {
    const framedUrl = `${baseURL}/roots/subscription`;
    await page.route('http://attacker.test/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: `<!doctype html><iframe id="victim" src="${framedUrl}"></iframe>` }),
    );
    // The same page loads at the top level; framed by another origin, the browser shows its error page.
    await page.goto(framedUrl);
    await expect(page.locator('#roots-config')).toHaveCount(1);
    await page.goto('http://attacker.test/');
    const frame = () => page.frames().find((candidate) => candidate !== page.mainFrame());
    await expect.poll(() => frame()?.url()).toBe('chrome-error://chromewebdata/');
    expect(await frame()?.locator('#roots-config').count()).toBe(0);
  });
});
