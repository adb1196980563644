import { longDate, statusWords } from '@roots/contracts/subscription-words';
import type { SubscriptionStatus } from '@roots/contracts/subscriptions';
import { formatMinorUsd } from '../../lib/money';
import type { PeriodLength } from '../terms/plan-terms';
import { renderEmail, type RenderedEmail } from './templates/email-layout';

export type { RenderedEmail } from './templates/email-layout';

/**
 * Text as HTML: the five characters HTML gives a meaning escaped, each as React writes it (so the
 * escaped form of a secret is the one the templates' HTML holds: redaction, the dev mailbox).
 */
export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' })[c] ?? c);

/** Every date of every email as the app writes it: "December 1, 2026" (issue 35: emails wrote 2026-12-01). */
const day = (date: Date) => longDate(date);

/**
 * The receipt number of a charge: stable, one per charge (issue 23), short enough to read out to
 * support. `R-` and the first 12 hex digits of the charge's id.
 * @example receiptNumberOf('0f8fad5b-d9cb-469f-a165-70867728950e') // 'R-0F8FAD5BD9CB'
 */
export function receiptNumberOf(chargeId: string): string {
  return `R-${chargeId.replace(/-/g, '').slice(0, 12).toUpperCase()}`;
}

/**
 * What a charge was (issue 35): a renewal receipt that said "Thank you for your purchase … Today
 * you pay $1 for your 3-day trial" told the bank and the customer the wrong thing.
 */
export type ChargeKind =
  | { kind: 'trial'; trialDays: number }
  | { kind: 'first_period' }
  | { kind: 'renewal'; period: number; periodStart: Date; periodEnd: Date }
  | { kind: 'one_time' }
  | { kind: 'add_on' };

export type ReceiptInput = {
  /** The charge this receipt is for (its receipt number). */
  chargeId: string;
  /** When the card was charged: the receipt's date. */
  chargedAt: Date;
  charge: ChargeKind;
  productName: string;
  planName: string;
  amountMinor: number;
  /** The words the buyer accepted at purchase (a first receipt quotes them). */
  termsText: string;
  /** When the buyer accepted them (a renewal receipt says so instead of quoting the first charge's words). */
  acceptedAt?: Date | null;
  nextChargeAt: Date | null;
  nextChargeMinor: number | null;
  /** Renewal period after the next charge; null for purchases that never renew. */
  renewalPeriod?: PeriodLength | null;
  cardLast4: string | null;
  cancelUrl: string | null;
};

export function receiptEmail(input: ReceiptInput): RenderedEmail {
  return receiptOf('receipt', `Your ${input.productName} receipt`, input);
}

export function renewalReceiptEmail(input: ReceiptInput & { charge: Extract<ChargeKind, { kind: 'renewal' }> }): RenderedEmail {
  return receiptOf('renewal_receipt', `Your ${input.productName} subscription renewed`, input);
}

/** What the charge paid for, in one line of the receipt. */
function chargeWords(input: ReceiptInput): string {
  const { charge, planName } = input;
  switch (charge.kind) {
    case 'trial':
      return `the ${charge.trialDays}-day trial of ${planName}`;
    case 'first_period':
      return `the first period of ${planName}`;
    case 'renewal':
      return `renewal ${charge.period} of ${planName}, for ${day(charge.periodStart)} to ${day(charge.periodEnd)}`;
    case 'one_time':
      return `${planName}, a one-time purchase`;
    case 'add_on':
      return `${planName}, a one-time add-on to your plan`;
  }
}

function receiptOf(kind: 'receipt' | 'renewal_receipt', subject: string, input: ReceiptInput): RenderedEmail {
  const renewal = input.charge.kind === 'renewal';
  return renderEmail({
    kind,
    subject,
    productName: input.productName,
    blocks: [
      `Receipt ${receiptNumberOf(input.chargeId)}, ${day(input.chargedAt)}`,
      renewal ? `Your ${input.planName} renewed.` : `Thank you for your purchase of ${input.planName}.`,
      `Charged for: ${chargeWords(input)}.`,
      `Amount charged: ${formatMinorUsd(input.amountMinor)}${input.cardLast4 ? ` (card ending in ${input.cardLast4})` : ''}.`,
      input.nextChargeAt && input.nextChargeMinor !== null
        ? `Next charge: ${formatMinorUsd(input.nextChargeMinor)} on ${day(input.nextChargeAt)}${input.renewalPeriod ? `, then ${everyPeriod(input.renewalPeriod)} until you cancel` : ''}.`
        : 'No further charges.',
      // The accepted words describe the first charge ("Today you pay …"): a renewal says when they were accepted instead.
      renewal
        ? `Charged under the terms you accepted${input.acceptedAt ? ` on ${day(input.acceptedAt)}` : ' at purchase'}.`
        : `Terms you accepted: ${input.termsText}`,
      ...(input.cancelUrl ? [{ text: 'Cancel any time in one click:', url: input.cancelUrl, button: 'Cancel subscription' }] : []),
    ],
    secrets: [input.cancelUrl],
  });
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
  return renderEmail({
    kind: 'trial_reminder',
    subject: `Your ${input.productName} trial ends on ${day(input.convertsAt)}`,
    productName: input.productName,
    blocks: [
      `Your trial of ${input.planName} ends on ${day(input.convertsAt)}.`,
      `Then ${formatMinorUsd(input.amountMinor)} will be charged${input.cardLast4 ? ` to the card ending in ${input.cardLast4}` : ''}, and again ${everyPeriod(input.renewalPeriod)} until you cancel.`,
      { text: 'Not for you? Cancel in one click before then:', url: input.cancelUrl, button: 'Cancel my trial' },
    ],
    secrets: [input.cancelUrl],
  });
}

/**
 * The one-time sign-in code email. The code is never in the subject: subjects show on lock screens
 * and in mail lists, and a subject is what logs and consoles quote (issue 22).
 */
export function signInCodeEmail(input: { productName: string; code: string; validMinutes: number }): RenderedEmail {
  return renderEmail({
    kind: 'sign_in_code',
    subject: `Your ${input.productName} sign-in code`,
    productName: input.productName,
    blocks: [
      `Your ${input.productName} sign-in code is ${input.code}.`,
      `It is valid for ${input.validMinutes} minutes. If you did not ask for it, ignore this email.`,
    ],
    secrets: [input.code],
  });
}

export function cancelCodeEmail(input: { productName: string; code: string; validMinutes: number; links: string[] }): RenderedEmail {
  return renderEmail({
    kind: 'cancel_code',
    subject: `Your ${input.productName} cancellation code`,
    productName: input.productName,
    blocks: [
      `Your code to cancel your ${input.productName} subscription is ${input.code}. It is valid for ${input.validMinutes} minutes.`,
      ...input.links.map((link) => ({ text: 'Or cancel in one click:', url: link, button: 'Cancel in one click' })),
      'If you did not ask for this, ignore this email.',
    ],
    secrets: [input.code, ...input.links],
  });
}

/**
 * A cancel at the period's end: no more charges, access until the paid period ends (the account
 * says the same). An operator's "Cancel now" (no date) ended access at once.
 */
export function cancelConfirmationEmail(input: { productName: string; planName: string; accessUntil: Date | null }): RenderedEmail {
  return renderEmail({
    kind: 'cancel_confirmation',
    subject: `Your ${input.productName} subscription has been canceled`,
    productName: input.productName,
    blocks: [
      `Your subscription has been canceled (${input.planName}). You will not be charged again.`,
      input.accessUntil ? `Your access lasts until ${day(input.accessUntil)}.` : 'Your access has ended.',
    ],
    secrets: [],
  });
}

/**
 * A plan change asked for in the account, or its cancellation (issue 35, ADR 196): what renews,
 * from when, at what price and how often. The switch is at the end of the paid period, no proration.
 */
export function planChangeEmail(input: {
  productName: string;
  fromPlanName: string;
  toPlanName: string;
  effectiveAt: Date;
  amountMinor: number;
  renewalPeriod: PeriodLength;
  cardLast4: string | null;
  /** `canceled`: the customer kept their plan; the email says what renews instead. */
  action: 'requested' | 'canceled';
}): RenderedEmail {
  const card = input.cardLast4 ? ` to the card ending in ${input.cardLast4}` : '';
  return renderEmail({
    kind: 'plan_change',
    subject:
      input.action === 'requested'
        ? `Your ${input.productName} plan changes on ${day(input.effectiveAt)}`
        : `Your ${input.productName} plan change is canceled`,
    productName: input.productName,
    blocks:
      input.action === 'requested'
        ? [
            `You changed your plan from ${input.fromPlanName} to ${input.toPlanName}.`,
            `${input.fromPlanName} continues until ${day(input.effectiveAt)}. Nothing is charged today.`,
            `On ${day(input.effectiveAt)} ${input.toPlanName} starts: ${formatMinorUsd(input.amountMinor)} will be charged${card}, and again ${everyPeriod(input.renewalPeriod)} until you cancel.`,
            'You can keep your current plan instead: open Manage subscriptions in your account before then.',
          ]
        : [
            `Your change to ${input.toPlanName} is canceled: you keep ${input.fromPlanName}.`,
            `On ${day(input.effectiveAt)} ${formatMinorUsd(input.amountMinor)} will be charged${card} for ${input.fromPlanName}, and again ${everyPeriod(input.renewalPeriod)} until you cancel.`,
          ],
    secrets: [],
  });
}

/**
 * A refund, and what it did to access (issue 35: after "Cancel and refund" access ended at once
 * while the cancel email said it lasted until the period's end). A whole refund ends the purchase
 * and its access now; a partial one leaves them as they were.
 */
export function refundEmail(input: {
  productName: string;
  planName: string;
  amountMinor: number;
  cardLast4: string | null;
  refundedAt: Date;
  /** True when this refund ended the purchase and its access. */
  accessEnded: boolean;
}): RenderedEmail {
  return renderEmail({
    kind: 'refund_receipt',
    subject: `Your ${input.productName} refund`,
    productName: input.productName,
    blocks: [
      `We refunded ${formatMinorUsd(input.amountMinor)} for ${input.planName}${input.cardLast4 ? ` to the card ending in ${input.cardLast4}` : ''} on ${day(input.refundedAt)}.`,
      input.accessEnded
        ? `${input.planName} has ended with this refund: your access ended on ${day(input.refundedAt)} and you will not be charged again.`
        : `This was part of a payment: ${input.planName} and your access are unchanged.`,
      'Refunds usually appear on your statement within 5–10 business days.',
    ],
    secrets: [],
  });
}

/**
 * A second payment for what the customer already owned (a second tab, Back then pay) bought
 * nothing: the payment sweep refunded it whole, and this says so (issue 23).
 */
export function duplicatePaymentRefundEmail(input: {
  productName: string;
  planName: string;
  amountMinor: number;
  accountUrl: string;
}): RenderedEmail {
  return renderEmail({
    kind: 'duplicate_payment_refund',
    subject: `We refunded a second payment for ${input.productName}`,
    productName: input.productName,
    blocks: [
      `You already had ${input.planName}, so a second payment of ${formatMinorUsd(input.amountMinor)} for it bought nothing. We refunded it in full.`,
      'Refunds usually appear on your statement within 5–10 business days. What you bought first is unchanged.',
      { text: 'Your account:', url: input.accountUrl, button: 'Open my account' },
    ],
    secrets: [],
  });
}

/** What `/rec/subscriptions/{email}` sends: the address's purchases, never shown to the requester (ADR 085). */
export function purchasesEmail(input: {
  productName: string;
  purchases: {
    planName: string;
    status: SubscriptionStatus;
    /** The plan starts with a trial (the status words say "Trial" only then). */
    trial: boolean;
    renews: boolean;
    accessUntil: Date | null;
    cancelUrl: string | null;
  }[];
}): RenderedEmail {
  return renderEmail({
    kind: 'purchases_summary',
    subject: `Your ${input.productName} purchases`,
    productName: input.productName,
    blocks: [
      `Someone asked for the ${input.productName} purchases made with this email address. Here they are:`,
      ...input.purchases.map((purchase) => {
        // The status in the words of the account screen (issue 35), never its code.
        const line = `${purchase.planName}: ${statusWords(purchase.status, { trial: purchase.trial }, purchase.renews)}${purchase.accessUntil ? `, access until ${day(purchase.accessUntil)}` : ''}.`;
        return purchase.cancelUrl
          ? { text: `${line} To cancel it:`, url: purchase.cancelUrl, button: `Cancel ${purchase.planName}` }
          : line;
      }),
      'If you did not ask for this, ignore this email: nothing has changed.',
    ],
    secrets: input.purchases.map((purchase) => purchase.cancelUrl),
  });
}

export function activationEmail(input: { productName: string; activationUrl: string }): RenderedEmail {
  return renderEmail({
    kind: 'activation',
    subject: `Activate your ${input.productName} account`,
    productName: input.productName,
    blocks: [
      {
        text: `Open this link to activate your ${input.productName} account:`,
        url: input.activationUrl,
        button: 'Activate your account',
      },
      'If you did not ask for this, ignore this email.',
    ],
    secrets: [input.activationUrl],
  });
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
  return renderEmail({
    kind: 'access_help',
    subject: `Signing in to ${input.productName}`,
    productName: input.productName,
    blocks: [
      `Someone asked to recover access to ${input.productName} with this email address.`,
      {
        text: `The purchase made with it is in an account that signs in ${way}. Sign in that way to see it:`,
        url: input.signInUrl,
        button: 'Sign in',
      },
      'If you did not ask for this, ignore this email: nothing has changed.',
    ],
    secrets: [],
  });
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
 * A renewal the bank refused, to be tried again (dunning, issue 23): what failed and why, a signed
 * link to update the card before the next try, when that try is, that access goes on until then,
 * and the one-click way out.
 */
export function paymentFailedEmail(input: {
  productName: string;
  planName: string;
  amountMinor: number;
  cardLast4: string | null;
  declineCode: string | null;
  retryAt: Date;
  /** The signed link to the page that replaces the card of this subscription (a secret, like a cancel link). */
  updateCardUrl: string;
  cancelUrl: string;
}): RenderedEmail {
  return renderEmail({
    kind: 'payment_failed',
    subject: `We could not renew your ${input.productName} subscription`,
    productName: input.productName,
    blocks: [
      `We tried to charge ${formatMinorUsd(input.amountMinor)}${input.cardLast4 ? ` to the card ending in ${input.cardLast4}` : ''} for ${input.planName}, but ${declineWords(input.declineCode)}.`,
      `We will try again on ${day(input.retryAt)}. Your access goes on until then.`,
      {
        text: 'Have another card? Add it here and we try the payment again right away:',
        url: input.updateCardUrl,
        button: 'Update your card',
      },
      { text: 'Not staying? Cancel in one click and nothing more will be charged:', url: input.cancelUrl },
    ],
    secrets: [input.updateCardUrl, input.cancelUrl],
  });
}

/** The last renewal try failed: the subscription ended, nothing more will be charged (involuntary churn). */
export function subscriptionEndedEmail(input: {
  productName: string;
  planName: string;
  declineCode: string | null;
  startUrl: string;
}): RenderedEmail {
  return renderEmail({
    kind: 'subscription_ended',
    subject: `Your ${input.productName} subscription has ended`,
    productName: input.productName,
    blocks: [
      `We could not renew ${input.planName}: ${declineWords(input.declineCode)}. Your subscription has ended and nothing more will be charged.`,
      { text: 'You can start again any time:', url: input.startUrl, button: `Start ${input.productName} again` },
    ],
    secrets: [],
  });
}
