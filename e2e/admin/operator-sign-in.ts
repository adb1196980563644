import { expect, type APIRequestContext, type Page } from '@playwright/test';
import type { MailboxMessage } from '@roots/contracts/emails';

/**
 * The operator console's sign-in for the operator journeys, in one place: a second factor added
 * to the operator's sign-in changes this function only.
 */

async function mailbox(request: APIRequestContext): Promise<MailboxMessage[]> {
  return ((await (await request.get('/dev/mailbox.json')).json()) as { messages: MailboxMessage[] }).messages;
}

/** Ids of the sign-in codes sent to `email` so far (a later code is the one just asked for). */
async function codeIds(request: APIRequestContext, email: string): Promise<Set<string>> {
  return new Set((await mailbox(request)).filter((item) => item.to === email && item.kind === 'sign_in_code').map((item) => item.id));
}

/** The sign-in code sent to `email` that is not among `seen`. */
async function newCode(request: APIRequestContext, email: string, seen: Set<string>): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const message = (await mailbox(request)).find((item) => item.to === email && item.kind === 'sign_in_code' && !seen.has(item.id));
      code = /\b(\d{6})\b/.exec(message?.text ?? '')?.[1];
      return code;
    })
    .toBeTruthy();
  return code!;
}

/** Signs `email` (an operator) in on the console's own form and waits for the console. */
export async function signInAsOperator(page: Page, email: string): Promise<void> {
  await page.goto('/roots/admin');
  const form = page.getByTestId('operator-sign-in');
  const seen = await codeIds(page.request, email);
  await form.getByLabel('Email').fill(email);
  await form.getByRole('button', { name: 'Send code' }).click();
  await expect(form.getByRole('status')).toHaveText('We sent a code to your email.');
  await form.getByLabel('Code from the email').fill(await newCode(page.request, email, seen));
  await form.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('operator-email')).toHaveText(email);
}
