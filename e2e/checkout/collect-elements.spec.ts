import { DEV_DEFAULT_SECRETS } from '../../apps/gateway/src/config/env';
import { expect, test } from './support/fixtures';

type Collected = { records: Array<{ table: string; skyflowID: string; fields?: Record<string, string> }> };

/**
 * The non-card collect elements (checkout-spec §3, §5) in their gateway-origin frames: rule
 * messages, an element-match rule between two PINs, then a collect that stores the values as vault
 * records and gives the page only tokens — the merchant's server reads the values back.
 */
test('collect elements: messages in the frames, element match, then tokens for the records and the values only server-side', async ({
  checkout,
  page,
  stack,
}) => {
  const holder = `holder-collect-${Date.now()}`;
  await checkout.open({ mode: 'collect', holder });
  const frame = (name: string) => page.frameLocator(`iframe[data-roots-element="${name}"]`);
  const collect = page.getByRole('button', { name: 'Collect' });

  await collect.click();
  expect((await checkout.lastEvent('collectError')).payload).toMatchObject({ code: 'VALIDATION_FAILED' });
  await expect(frame('email').locator('#error')).toHaveText('This field is required!');
  await expect(frame('pin').locator('#error')).toHaveText('This field is required!');

  await frame('email').locator('input').fill('not-an-email');
  await frame('email').locator('input').blur();
  await expect(frame('email').locator('#error')).toHaveText('Enter an email address');
  await frame('email').locator('input').fill('ada@example.com');
  await expect(frame('email').locator('#error')).toHaveText('');

  await frame('pin').locator('input').fill('12');
  await frame('pin').locator('input').blur();
  await expect(frame('pin').locator('#error')).toHaveText('Fill in the field');
  await frame('pin').locator('input').fill('4821');
  await frame('confirm').locator('input').fill('4812');
  await frame('confirm').locator('input').blur();
  await expect(frame('confirm').locator('#error')).toHaveText('The PINs differ');
  await frame('confirm').locator('input').fill('4821');
  await expect(frame('confirm').locator('#error')).toHaveText('');
  await frame('country').locator('select').selectOption('BR');
  await frame('marketing').getByLabel('Send me news').check();

  await collect.click();
  const { records } = (await checkout.lastEvent('collect')).payload as Collected;
  const persons = records.find((record) => record.table === 'persons')!;
  const consents = records.find((record) => record.table === 'consents')!;
  expect(Object.keys(persons.fields ?? {}).sort()).toEqual(['country', 'email', 'pin', 'plan']);
  expect(Object.values({ ...persons.fields, ...consents.fields }).every((token) => /^tkn_/.test(token))).toBe(true);
  const page_ = await page.content();
  for (const secret of ['ada@example.com', '4821']) expect(page_).not.toContain(secret);
  expect(JSON.stringify(await checkout.events())).not.toContain('ada@example.com');

  const read = async (id: string) =>
    (
      await fetch(`${stack.gatewayUrl}/merchant/v1/records/${id}?holderReference=${holder}`, {
        headers: { 'x-api-key': DEV_DEFAULT_SECRETS.GATEWAY_MERCHANT_SECRET },
      })
    ).json();
  expect(await read(persons.skyflowID)).toMatchObject({
    table: 'persons',
    fields: { email: 'ada@example.com', pin: '4821', country: 'BR', plan: 'weekly' },
  });
  expect(await read(consents.skyflowID)).toMatchObject({ table: 'consents', fields: { marketing: 'yes' } });

  // The same email again: upsert updates the shopper's record instead of adding one.
  await frame('country').locator('select').selectOption('US');
  await collect.click();
  await expect.poll(async () => (await checkout.events()).filter((event) => event.name === 'collect').length).toBe(2);
  const again = ((await checkout.lastEvent('collect')).payload as Collected).records.find((record) => record.table === 'persons')!;
  expect(again.skyflowID).toBe(persons.skyflowID);
  expect(await read(persons.skyflowID)).toMatchObject({ fields: { country: 'US' } });
});
