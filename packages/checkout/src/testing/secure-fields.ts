import type { Page } from '@playwright/test';

/**
 * Playwright helpers for integrators: fill the gateway secure fields with a sandbox test card by
 * name. The cards are the gateway sandbox's (apps/gateway README "Test cards").
 *
 * @example
 * import { fillSecureFields } from '@roots/checkout/testing';
 * await fillSecureFields(page, 'threeDSChallenge');
 * await page.getByTestId('roots-pay').click();
 */
export const TEST_CARDS = {
  success: { number: '4242424242424242', cvv: '123' },
  successMastercard: { number: '5555555555554444', cvv: '123' },
  successAmex: { number: '378282246310005', cvv: '7319' },
  /** Rejected by the card form by default: 'Discover cards are not accepted.' */
  discover: { number: '6011111111111117', cvv: '123' },
  declined: { number: '4000000000000002', cvv: '123' },
  insufficientFunds: { number: '4000000000009995', cvv: '123' },
  expiredCard: { number: '4000000000000069', cvv: '123' },
  incorrectCvc: { number: '4000000000000127', cvv: '123' },
  processingError: { number: '4000000000000119', cvv: '123' },
  threeDSChallenge: { number: '4000000000003220', cvv: '123' },
  threeDSChallengeThenDeclined: { number: '4000008400001629', cvv: '123' },
  threeDSFrictionless: { number: '4000000000003055', cvv: '123' },
  slowAuthorization: { number: '4000000000000036', cvv: '123' },
  /** Pays while the shopper is there; renewals and other merchant-initiated charges: insufficient funds. */
  merchantChargesInsufficientFunds: { number: '4000000000009953', cvv: '123' },
} as const;
export type TestCardName = keyof typeof TEST_CARDS;

export type FillOptions = {
  /** Expiry as MM/YY; default 12/34. */
  expiry?: string;
  cvv?: string;
  /** Cardholder name (only when the field is shown); also a sandbox trigger (e.g. 'DECLINE'). */
  holderName?: string;
  /** A CSS scope when the page has several forms. */
  within?: string;
};

/** Fills every secure field that is on the page with the named test card. */
export async function fillSecureFields(page: Page, card: TestCardName, options: FillOptions = {}): Promise<void> {
  const scope = options.within ? `${options.within} ` : '';
  const field = (name: string) => page.frameLocator(`${scope}iframe[data-roots-field="${name}"]`).locator('input');
  const present = async (name: string) => (await page.locator(`${scope}iframe[data-roots-field="${name}"]`).count()) > 0;
  const { number, cvv } = TEST_CARDS[card];
  const [month = '12', year = '34'] = (options.expiry ?? '12/34').split('/');
  await field('card-number').pressSequentially(number);
  if (await present('expiry-date')) await field('expiry-date').pressSequentially(`${month}${year}`);
  if (await present('expiry-month')) await field('expiry-month').fill(month);
  if (await present('expiry-year')) await field('expiry-year').fill(year);
  await field('cvv').fill(options.cvv ?? cvv);
  if (await present('cardholder-name')) await field('cardholder-name').fill(options.holderName ?? 'Ada Lovelace');
  await field('cvv').blur();
}
