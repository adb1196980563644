import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from '../support/axe';
import { buyPlanAsVisitor, uniqueEmail } from '../support/session';

/**
 * Issue 24: with `sure_popup=true`, skipping the offers shows the last-chance packs over a dark
 * overlay. Their cards were white text on white: the buyer could read only the buttons, and one tap
 * charges the stored card. Each card must read as the offers page does, with its name and price.
 */
test.describe('the last-chance packs of sure_popup', () => {
  test.setTimeout(120_000);

  test('are readable: ink on white, WCAG AA contrast, names and prices visible', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await buyPlanAsVisitor(page, uniqueEmail('sure-popup'), '?sure_popup=true');
    await page.getByRole('button', { name: 'Continue to my account' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Are you sure?' });
    await expect(dialog).toBeVisible();
    const cards = dialog.locator('.plan-card');
    expect(await cards.count()).toBeGreaterThan(0);
    for (const card of await cards.all()) {
      const [color, background] = await card.evaluate((element) => {
        const style = getComputedStyle(element);
        return [style.color, style.backgroundColor];
      });
      expect(color, 'the card text is not the card background').not.toBe(background);
      await expect(card.getByRole('heading')).toBeVisible();
      await expect(card).toContainText('$');
    }
    // axe's color-contrast (serious) over the page with the dialog open.
    await expectNoSeriousA11yViolations(page);
  });
});
