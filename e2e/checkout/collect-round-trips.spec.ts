import { fillSecureFields } from '@roots/checkout/testing';
import { expect, test } from './support/fixtures';

type Container = {
  validate(): Promise<boolean>;
  elements: Array<{ name: string; setValue(value: string): void; clearValue(): void }>;
};
type Dropin = { collectCard(): Promise<unknown> };

/**
 * What the page asks of the secure frames and what they answer (checkout-spec §3, §5): styles sent
 * with the frame options, validate() answered by the frames, setValue outside PROD, and the card
 * collect result with the billing country — never the card itself.
 */
test('collect elements: labelStyles and errorTextStyles reach the frame, validate() asks the frames, setValue outside PROD', async ({
  checkout,
  page,
}) => {
  await checkout.open({ mode: 'collect' });
  // Page-side calls on the merchant's container (evaluated in the page, so no closures over test code).
  const validate = () => page.evaluate(() => (window as unknown as { __rootsCheckout: Container }).__rootsCheckout.validate());
  // setValue or clearValue, then validate() in the same turn: only the frames' answers can know the new state.
  const callThenValidate = (method: 'setValue' | 'clearValue', name: string, value = '') =>
    page.evaluate(
      ([method, name, value]) => {
        const container = (window as unknown as { __rootsCheckout: Container }).__rootsCheckout;
        const element = container.elements.find((item) => item.name === name)!;
        if (method === 'setValue') element.setValue(value);
        else element.clearValue();
        return container.validate();
      },
      [method, name, value] as const,
    );
  const email = page.frameLocator('iframe[data-roots-element="email"]');
  await expect(email.locator('label')).toHaveCSS('color', 'rgb(0, 0, 128)');
  await expect(page.locator('.roots-label', { hasText: 'Email' })).toHaveCSS('color', 'rgb(0, 0, 128)');

  expect(await validate()).toBe(false);
  await expect(email.locator('#error')).toHaveText('This field is required!');
  await expect(email.locator('#error')).toHaveCSS('color', 'rgb(176, 0, 32)');
  await expect(email.locator('#error')).toHaveCSS('font-size', '13px');

  // The PINs are typed: they take no value from the page.
  expect(await callThenValidate('setValue', 'pin', '4821')).toBe(false);
  await expect(page.frameLocator('iframe[data-roots-element="pin"]').locator('input')).toHaveValue('');
  await page.frameLocator('iframe[data-roots-element="pin"]').locator('input').fill('4821');
  await page.frameLocator('iframe[data-roots-element="confirm"]').locator('input').fill('4821');
  await expect(page.frameLocator('iframe[data-roots-element="confirm"]').locator('#error')).toHaveText('');

  // setValue (SANDBOX) fills the email frame; validate() right after already sees it, and clearValue empties it again.
  expect(await callThenValidate('setValue', 'email', 'ada@example.com')).toBe(true);
  await expect(email.locator('input')).toHaveValue('ada@example.com');
  expect(await callThenValidate('clearValue', 'email')).toBe(false);
  await expect(email.locator('input')).toHaveValue('');
});

test('card form: the collect result carries the card token and the billing country code, fullName and iso3', async ({ checkout, page }) => {
  await checkout.open({ mode: 'card' });
  await page.locator('#roots-country').selectOption('US');
  await page.locator('#roots-postal').fill('10001');
  await page.locator('#roots-installments').selectOption('3');
  await fillSecureFields(page, 'success');
  const result = (await page.evaluate(() => (window as unknown as { __rootsCheckout: Dropin }).__rootsCheckout.collectCard())) as {
    cardData: { token: string; last4: string; network: string };
    billingInfo: unknown;
    selectedInstallment: unknown;
  };
  expect(result.cardData).toMatchObject({ last4: '4242', network: 'visa' });
  expect(result.cardData.token).toEqual(expect.any(String));
  expect(result.billingInfo).toEqual({
    billingAddress: { country: { code: 'US', fullName: expect.stringMatching(/United States/), iso3: 'USA' }, postalCode: '10001' },
  });
  expect(result.selectedInstallment).toEqual({ count: 3, amount: { value: 833, currency: 'USD' } });
  // The card number stays in its frame: not in the answer, not in the page.
  expect(JSON.stringify(result)).not.toMatch(/4242\s?4242\s?4242/);
  expect(await page.content()).not.toMatch(/4242\s?4242\s?4242/);
});
