import type { PublicConfig } from '@roots/contracts';
import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from '../support/axe';

/** Every screen a visitor can reach without signing in, and the 404: each has the footer. */
const SCREENS = [
  '/roots/',
  '/roots/subscription',
  '/roots/offers',
  '/roots/sign-in',
  '/roots/activate',
  '/roots/unsubscription',
  '/roots/unsubscribe-with-email',
  '/roots/access-recovery',
  '/roots/population',
  '/roots/access-product',
  '/roots/legal/terms',
  '/no/such/page',
];
const LINKS = [
  { name: 'Cookie policy', kind: 'cookies' },
  { name: 'Privacy policy', kind: 'privacy' },
  { name: 'Terms of use', kind: 'terms' },
] as const;

test.describe('legal pages', () => {
  test('every footer links to the three legal pages, which open on the product site', async ({ page }) => {
    test.setTimeout(180_000);
    for (const [index, path] of SCREENS.entries()) {
      await page.goto(path);
      const footer = page.getByRole('contentinfo').getByRole('navigation', { name: 'Legal', exact: true });
      await expect(footer, path).toBeVisible();
      for (const link of LINKS)
        await expect(footer.getByRole('link', { name: link.name }), path).toHaveAttribute('href', `/roots/legal/${link.kind}`);
      // Follow one of the three from each screen, in turn.
      const link = LINKS[index % LINKS.length]!;
      await footer.getByRole('link', { name: link.name }).click();
      await expect(page).toHaveURL(new RegExp(`/roots/legal/${link.kind}$`));
      await expect(page.getByTestId(`legal-${link.kind}`), `${path} → ${link.kind}`).toBeVisible();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(link.name);
    }
  });

  test('the pages name the configured operator and contact and say what really happens', async ({ page, request }) => {
    const config = (await (await request.get('/api/config')).json()) as PublicConfig;
    for (const { kind } of LINKS) {
      await page.goto(`/roots/legal/${kind}`);
      const screen = page.getByTestId(`legal-${kind}`);
      await expect(screen).toContainText(`${config.productName} is operated by ${config.legal.operatorName}`);
      await expect(screen).toContainText(config.legal.contactEmail);
      await expectNoSeriousA11yViolations(page);
    }
    await page.goto('/roots/legal/privacy');
    await expect(page.getByTestId('legal-privacy')).toContainText('never written to disk, to a database, to logs or to any queue');
    await page.goto('/roots/legal/terms');
    await expect(page.getByTestId('legal-terms')).toContainText(`Within ${config.guaranteeDays} days of a charge`);
  });
});
