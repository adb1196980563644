import type { MailboxMessage } from '@roots/contracts/emails';
import { fillSecureFields, type TestCardName } from '@roots/checkout/testing';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import type { OidcTestAccount } from './oidc-provider.config';

/**
 * Browser helpers for journeys that need a customer: buy a plan as a visitor, sign in by email code
 * or through the local OpenID Connect providers.
 */

/** A fresh address for one journey (the product under test keeps its database for the whole run). */
export function uniqueEmail(label: string): string {
  return `${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

/** Opens the paywall with `email` already captured, as the funnel leaves it, and waits for the drop-in's pay button. */
export async function openPaywallAs(page: Page, email: string, query = ''): Promise<void> {
  await page.goto('/roots/');
  await page.evaluate((address) => sessionStorage.setItem('userQuizEmail', address), email);
  await page.goto(`/roots/subscription${query}`);
  await expect(page.getByTestId('roots-pay')).toBeVisible({ timeout: 30_000 });
}

/** On the paywall: the card method, the sandbox's success card, pay. */
export async function payWithSuccessCard(page: Page): Promise<void> {
  await payWithTestCard(page, 'success');
}

/** On the paywall: the card method, the named sandbox test card (`@roots/checkout/testing`), pay. */
export async function payWithTestCard(page: Page, card: TestCardName): Promise<void> {
  const pay = page.getByTestId('roots-pay');
  const cardItem = page.getByTestId('roots-item-card');
  if (await cardItem.count()) await cardItem.locator('input[type=radio]').check();
  await fillSecureFields(page, card);
  await expect(pay).toBeEnabled();
  await pay.click();
}

/**
 * Buys the plan of `query` (default: the weekly trial) on the paywall as a visitor with the
 * sandbox's success card, and waits for the offers page. Returns the subscription id the page kept
 * in session storage.
 */
export async function buyPlanAsVisitor(page: Page, email: string, query = ''): Promise<string> {
  await openPaywallAs(page, email, query);
  await payWithSuccessCard(page);
  await expect(page).toHaveURL(/\/roots\/offers/, { timeout: 60_000 });
  const subscriptionId = await page.evaluate(() => sessionStorage.getItem('__subscriptionId'));
  expect(subscriptionId).toMatch(/^[0-9a-f-]{36}$/);
  return subscriptionId ?? '';
}

/** The newest email of `kind` to `email` in the dev mailbox, waiting for the outbox to deliver it. */
export async function latestEmail(
  request: APIRequestContext,
  email: string,
  kind: MailboxMessage['kind'],
  after = 0,
): Promise<MailboxMessage> {
  let found: MailboxMessage | undefined;
  await expect
    .poll(
      async () => {
        const answer = (await (await request.get('/dev/mailbox.json')).json()) as { messages: MailboxMessage[] };
        found = answer.messages
          // Delivered only: until then the inbox shows the outbox's copy, whose codes and links are redacted.
          .filter(
            (message) =>
              message.to === email.toLowerCase() &&
              message.kind === kind &&
              message.status !== 'pending' &&
              Date.parse(message.createdAt) >= after,
          )
          .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))[0];
        return found !== undefined;
      },
      { timeout: 20_000, message: `a ${kind} email to ${email}` },
    )
    .toBe(true);
  return found!;
}

/** The six digits of the newest sign-in code sent to `email`. */
export async function readSignInCode(request: APIRequestContext, email: string, after = 0): Promise<string> {
  const message = await latestEmail(request, email, 'sign_in_code', after);
  const code = /\b(\d{6})\b/.exec(message.text)?.[1];
  expect(code, message.kind).toBeTruthy();
  return code ?? '';
}

/**
 * On the sign-in (or activate) screen: asks for a code by email, reads it from the dev mailbox and
 * signs in with it.
 */
export async function signInByEmailCode(page: Page, email: string): Promise<void> {
  const screen = page.getByTestId('sign-in-screen');
  await expect(screen.getByRole('button', { name: 'Email me a code' })).toBeVisible({ timeout: 20_000 });
  const sentAfter = Date.now() - 1_000;
  await screen.getByLabel('Email for a one-time code').fill(email);
  await screen.getByRole('button', { name: 'Email me a code' }).click();
  await expect(screen.getByText(`We sent a 6-digit code to ${email}.`)).toBeVisible();
  const code = await readSignInCode(page.request, email, sentAfter);
  await screen.getByLabel('Code').fill(code);
  await screen.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * On the local provider's own page (Google-type chooser or Apple-type sign-in): picks a listed
 * account, or adds one through "Use another account".
 */
export async function chooseProviderAccount(page: Page, account: OidcTestAccount, listed: boolean): Promise<void> {
  if (listed) {
    await page.getByRole('button', { name: `${account.name} <${account.email}>` }).click();
    return;
  }
  const another = page.getByRole('group', { name: 'Use another account' });
  await another.getByLabel('Email').fill(account.email);
  await another.getByLabel('Name').fill(account.name);
  await another.getByRole('button', { name: 'Continue' }).click();
}

/** A customer who bought the weekly trial as a visitor and then signed in by email code: on webapp main. */
export async function signInAsNewCustomer(page: Page, label: string): Promise<{ email: string; subscriptionId: string }> {
  const email = uniqueEmail(label);
  const subscriptionId = await buyPlanAsVisitor(page, email);
  await page.goto('/roots/sign-in');
  await signInByEmailCode(page, email);
  await expect(page).toHaveURL(/\/roots\/webapp$/, { timeout: 30_000 });
  return { email, subscriptionId };
}

/**
 * A signed-in customer with no live plan (ADR 196: one customer has one), so a journey can buy a
 * first plan signed in: an account needs a purchase, so this one bought the weekly trial and cancelled it.
 */
export async function signInWithoutLivePlan(page: Page, label: string): Promise<{ email: string; uid: string; cancelled: string }> {
  const { email, subscriptionId } = await signInAsNewCustomer(page, label);
  const origin = new URL(page.url()).origin;
  const cancel = await page.request.post('/api/cancel', { data: { id: subscriptionId }, headers: { origin } });
  expect(cancel.status(), await cancel.text()).toBe(200);
  const me = (await (await page.request.get('/api/account/me')).json()) as { user: { uid: string } };
  expect(me.user.uid).toBeTruthy();
  return { email, uid: me.user.uid, cancelled: subscriptionId };
}
