import { expect, type APIRequestContext, type Page } from '@playwright/test';
import type { MailboxMessage } from '@roots/contracts/emails';
import { Secret, TOTP } from 'otpauth';

/**
 * The operator's side of the console's sign-in for the admin journeys: the email code read from the
 * dev mailbox, then the authenticator (TOTP) code computed here with the same library the server
 * checks it with, from the key the enrollment screen shows (ADR 151).
 */

/** PRODUCT_NAME of the admin journeys' server (the authenticator's issuer). */
const ISSUER = 'Roots';
const PERIOD_MS = 30_000;

/** Each operator's authenticator key once enrolled, and the last time step a code was given for. */
const authenticators = new Map<string, { secret: string; lastStep: number }>();

export async function mailbox(request: APIRequestContext): Promise<MailboxMessage[]> {
  return ((await (await request.get('/dev/mailbox.json')).json()) as { messages: MailboxMessage[] }).messages;
}

/** Ids of the sign-in codes sent to `email` so far (a later code is the one just asked for). */
export async function codeIds(request: APIRequestContext, email: string): Promise<Set<string>> {
  return new Set((await mailbox(request)).filter((item) => item.to === email && item.kind === 'sign_in_code').map((item) => item.id));
}

/** The sign-in code sent to `email` that is not among `seen`. */
export async function newCode(request: APIRequestContext, email: string, seen: Set<string>): Promise<string> {
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

/** The code an authenticator app shows for `secret` at `timestamp`. */
export function authenticatorCode(email: string, secret: string, timestamp = Date.now()): string {
  return new TOTP({ issuer: ISSUER, label: email, algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({
    timestamp,
  });
}

/**
 * A fresh code for an enrolled operator: the server takes each time step once, so after a code of
 * the current step it gives the next step's (accepted one step early), waiting when even that was used.
 */
export async function freshAuthenticatorCode(email: string): Promise<string> {
  const known = authenticators.get(email);
  if (!known) throw new Error(`${email} has no authenticator yet`);
  let step = Math.floor(Date.now() / PERIOD_MS);
  if (step <= known.lastStep) step = known.lastStep + 1;
  while (step > Math.floor(Date.now() / PERIOD_MS) + 1) await new Promise((resolve) => setTimeout(resolve, 1000));
  known.lastStep = step;
  return authenticatorCode(email, known.secret, step * PERIOD_MS);
}

/** The email-code step of the console's sign-in; the page then asks for the second factor. */
export async function signInWithEmailCode(page: Page, email: string): Promise<void> {
  await page.goto('/roots/admin');
  const form = page.getByTestId('operator-sign-in');
  const seen = await codeIds(page.request, email);
  await form.getByLabel('Email').fill(email);
  await form.getByRole('button', { name: 'Send code' }).click();
  await expect(form.getByRole('status')).toHaveText('We sent a code to your email.');
  await form.getByLabel('Code from the email').fill(await newCode(page.request, email, seen));
  await form.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('operator-second-factor')).toBeVisible();
}

/**
 * The console's whole sign-in: the email code, then the authenticator: set up on the first
 * sign-in (the key read from the screen), its code on every later one.
 */
export async function signInAsOperator(page: Page, email: string): Promise<void> {
  await signInWithEmailCode(page, email);
  const screen = page.getByTestId('operator-second-factor');
  if (!authenticators.has(email)) {
    await screen.getByRole('button', { name: 'Set up authenticator' }).click();
    await expect(screen.getByRole('img', { name: 'QR code of your authenticator key' })).toBeVisible();
    const secret = (await screen.getByTestId('totp-secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    authenticators.set(email, { secret, lastStep: 0 });
  }
  await screen.getByLabel('Code from your authenticator app').fill(await freshAuthenticatorCode(email));
  await screen.getByRole('button', { name: /open the console/i }).click();
  await expect(page.getByTestId('operator-email')).toHaveText(email);
}
