import type { EmailKind } from '@roots/contracts/emails';
import { formatMinorUsd } from '../../lib/money';
import type { PeriodLength } from '../billing/plan-terms';

/**
 * An email as the outbox takes it. `secrets` are the values in it that prove something when used
 * (a sign-in code, a cancel link): the outbox keeps them sealed until delivery and stores only a
 * redacted copy (issue 22), so every template names them, even when there are none.
 */
export type RenderedEmail = { kind: EmailKind; subject: string; text: string; html: string; secrets: readonly string[] };

/** Text as HTML: the five characters HTML gives a meaning escaped (templates, the footer, redaction, the dev mailbox). */
export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** Plain text with bare URLs becomes minimal HTML with links; text stays the source of truth. */
export function render(kind: EmailKind, subject: string, lines: readonly string[], secrets: readonly (string | null)[]): RenderedEmail {
  const text = lines.join('\n');
  const html = `<!doctype html><html><body style="font-family:sans-serif">${lines
    .map((line) => `<p>${escapeHtml(line).replace(/(https?:\/\/[^\s<]+)/g, '<a href="$1">$1</a>')}</p>`)
    .join('')}</body></html>`;
  return { kind, subject, text, html, secrets: secrets.filter((secret): secret is string => !!secret) };
}

const day = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The receipt number of a charge: stable, one per charge (issue 23), short enough to read out to
 * support. `R-` and the first 12 hex digits of the charge's id.
 * @example receiptNumberOf('0f8fad5b-d9cb-469f-a165-70867728950e') // 'R-0F8FAD5BD9CB'
 */
export function receiptNumberOf(chargeId: string): string {
  return `R-${chargeId.replace(/-/g, '').slice(0, 12).toUpperCase()}`;
}

export type ReceiptInput = {
  /** The charge this receipt is for (its receipt number). */
  chargeId: string;
  productName: string;
  planName: string;
  amountMinor: number;
  termsText: string;
  nextChargeAt: Date | null;
  nextChargeMinor: number | null;
  /** Renewal period after the next charge; null for purchases that never renew. */
  renewalPeriod?: PeriodLength | null;
  cardLast4: string | null;
  cancelUrl: string | null;
};

export function receiptEmail(input: ReceiptInput): RenderedEmail {
  return render(
    'receipt',
    `Your ${input.productName} receipt`,
    [
      `Receipt ${receiptNumberOf(input.chargeId)}`,
      `Thank you for your purchase of ${input.planName}.`,
      `Amount charged: ${formatMinorUsd(input.amountMinor)}${input.cardLast4 ? ` (card ending in ${input.cardLast4})` : ''}.`,
      input.nextChargeAt && input.nextChargeMinor !== null
        ? `Next charge: ${formatMinorUsd(input.nextChargeMinor)} on ${day(input.nextChargeAt)}${input.renewalPeriod ? `, then ${everyPeriod(input.renewalPeriod)} until you cancel` : ''}.`
        : 'No further charges.',
      `Terms you accepted: ${input.termsText}`,
      ...(input.cancelUrl ? [`Cancel any time in one click: ${input.cancelUrl}`] : []),
    ],
    [input.cancelUrl],
  );
}

export function renewalReceiptEmail(input: ReceiptInput & { period: number }): RenderedEmail {
  return { ...receiptEmail(input), kind: 'renewal_receipt', subject: `Your ${input.productName} subscription renewed` };
}

/** 'every week', 'every 3 months', 'every 10 days': the renewal period in the words of the paywall. */
export function everyPeriod(length: PeriodLength): string {
  if (length.unit === 'day' && length.count % 7 === 0) return length.count === 7 ? 'every week' : `every ${length.count / 7} weeks`;
  return length.count === 1 ? `every ${length.unit}` : `every ${length.count} ${length.unit}s`;
}

export function trialReminderEmail(input: {
  productName: string;
  planName: string;
  convertsAt: Date;
  amountMinor: number;
  /** The plan's renewal period: the email says it in the paywall's words. */
  renewalPeriod: PeriodLength;
  cardLast4: string | null;
  cancelUrl: string;
}): RenderedEmail {
  return render(
    'trial_reminder',
    `Your ${input.productName} trial ends on ${day(input.convertsAt)}`,
    [
      `Your trial of ${input.planName} ends on ${day(input.convertsAt)}.`,
      `Then ${formatMinorUsd(input.amountMinor)} will be charged${input.cardLast4 ? ` to the card ending in ${input.cardLast4}` : ''}, and again ${everyPeriod(input.renewalPeriod)} until you cancel.`,
      `Not for you? Cancel in one click before then: ${input.cancelUrl}`,
    ],
    [input.cancelUrl],
  );
}

/**
 * The one-time sign-in code email. The code is never in the subject: subjects show on lock screens
 * and in mail lists, and a subject is what logs and consoles quote (issue 22).
 */
export function signInCodeEmail(input: { productName: string; code: string; validMinutes: number }): RenderedEmail {
  return render(
    'sign_in_code',
    `Your ${input.productName} sign-in code`,
    [
      `Your ${input.productName} sign-in code is ${input.code}.`,
      `It is valid for ${input.validMinutes} minutes. If you did not ask for it, ignore this email.`,
    ],
    [input.code],
  );
}

export function cancelCodeEmail(input: { productName: string; code: string; validMinutes: number; links: string[] }): RenderedEmail {
  return render(
    'cancel_code',
    `Your ${input.productName} cancellation code`,
    [
      `Your code to cancel your ${input.productName} subscription is ${input.code}. It is valid for ${input.validMinutes} minutes.`,
      ...input.links.map((link) => `Or cancel in one click: ${link}`),
      'If you did not ask for this, ignore this email.',
    ],
    [input.code, ...input.links],
  );
}

export function cancelConfirmationEmail(input: { productName: string; planName: string; accessUntil: Date | null }): RenderedEmail {
  return render(
    'cancel_confirmation',
    `Your ${input.productName} subscription has been canceled`,
    [
      `Your subscription has been canceled (${input.planName}). You will not be charged again.`,
      input.accessUntil ? `Your access lasts until ${day(input.accessUntil)}.` : 'Your access has ended.',
    ],
    [],
  );
}

export function refundEmail(input: { productName: string; amountMinor: number; cardLast4: string | null }): RenderedEmail {
  return render(
    'refund_receipt',
    `Your ${input.productName} refund`,
    [
      `We refunded ${formatMinorUsd(input.amountMinor)}${input.cardLast4 ? ` to the card ending in ${input.cardLast4}` : ''} under our 100% money back guarantee.`,
      'Refunds usually appear on your statement within 5–10 business days.',
    ],
    [],
  );
}

/** What `/rec/subscriptions/{email}` sends: the address's purchases, never shown to the requester (ADR 085). */
export function purchasesEmail(input: {
  productName: string;
  purchases: { planName: string; status: string; accessUntil: Date | null; cancelUrl: string | null }[];
}): RenderedEmail {
  return render(
    'purchases_summary',
    `Your ${input.productName} purchases`,
    [
      `Someone asked for the ${input.productName} purchases made with this email address. Here they are:`,
      ...input.purchases.map(
        (purchase) =>
          `${purchase.planName}: ${purchase.status.replace(/_/g, ' ')}${purchase.accessUntil ? `, access until ${day(purchase.accessUntil)}` : ''}.` +
          (purchase.cancelUrl ? ` To cancel it: ${purchase.cancelUrl}` : ''),
      ),
      'If you did not ask for this, ignore this email: nothing has changed.',
    ],
    input.purchases.map((purchase) => purchase.cancelUrl),
  );
}

export function activationEmail(input: { productName: string; activationUrl: string }): RenderedEmail {
  return render(
    'activation',
    `Activate your ${input.productName} account`,
    [
      `Open this link to activate your ${input.productName} account: ${input.activationUrl}`,
      'If you did not ask for this, ignore this email.',
    ],
    [input.activationUrl],
  );
}

/**
 * Access recovery for an address whose purchase was finalized into an account that signs in
 * another way: the address owner learns which way, and nobody else does (issue 22).
 */
export function accessHelpEmail(input: {
  productName: string;
  signInWith: 'google' | 'apple' | 'email';
  signInUrl: string;
}): RenderedEmail {
  const way = { google: 'with Google', apple: 'with Apple', email: 'with another email address' }[input.signInWith];
  return render(
    'access_help',
    `Signing in to ${input.productName}`,
    [
      `Someone asked to recover access to ${input.productName} with this email address.`,
      `The purchase made with it is in an account that signs in ${way}. Sign in that way to see it: ${input.signInUrl}`,
      'If you did not ask for this, ignore this email: nothing has changed.',
    ],
    [],
  );
}

/** Why a renewal charge failed, in the customer's words (decline codes of the gateway). */
function declineWords(code: string | null): string {
  switch (code) {
    case 'insufficient_funds':
      return 'the bank said there were not enough funds';
    case 'expired_card':
      return 'the card has expired';
    case 'processing_error':
      return 'the bank could not process it just now';
    case 'card_declined':
      return 'the bank declined it';
    default:
      return 'the bank did not accept it';
  }
}

/**
 * A renewal the bank refused, to be tried again (dunning, issue 23): what failed and why, when the
 * next try is, that access goes on until then, the link to put another card on the subscription
 * (tried at once, ADR 141), and the one-click way out.
 */
export function paymentFailedEmail(input: {
  productName: string;
  planName: string;
  amountMinor: number;
  cardLast4: string | null;
  declineCode: string | null;
  retryAt: Date;
  /** The signed update-card page of this subscription (billing/update-card-link). */
  updateCardUrl: string;
  cancelUrl: string;
}): RenderedEmail {
  return render(
    'payment_failed',
    `We could not renew your ${input.productName} subscription`,
    [
      `We tried to charge ${formatMinorUsd(input.amountMinor)}${input.cardLast4 ? ` to the card ending in ${input.cardLast4}` : ''} for ${input.planName}, but ${declineWords(input.declineCode)}.`,
      `We will try again on ${day(input.retryAt)}. Your access goes on until then.`,
      `Want to use another card? Add it here and we try the payment again right away: ${input.updateCardUrl}`,
      `Not staying? Cancel in one click and nothing more will be charged: ${input.cancelUrl}`,
    ],
    [input.updateCardUrl, input.cancelUrl],
  );
}

/** The last renewal try failed: the subscription ended, nothing more will be charged (involuntary churn). */
export function subscriptionEndedEmail(input: {
  productName: string;
  planName: string;
  declineCode: string | null;
  startUrl: string;
}): RenderedEmail {
  return render(
    'subscription_ended',
    `Your ${input.productName} subscription has ended`,
    [
      `We could not renew ${input.planName}: ${declineWords(input.declineCode)}. Your subscription has ended and nothing more will be charged.`,
      `You can start again any time: ${input.startUrl}`,
    ],
    [],
  );
}
