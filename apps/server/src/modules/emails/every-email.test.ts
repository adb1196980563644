import { EMAIL_KINDS } from '@roots/contracts/emails';
import { createElement } from 'react';
import { render } from 'react-email';
import { describe, expect, it } from 'vitest';
import { cancelLinkEmail } from '../admin/admin-emails';
import {
  accessHelpEmail,
  activationEmail,
  cancelCodeEmail,
  cancelConfirmationEmail,
  escapeHtml,
  paymentFailedEmail,
  purchasesEmail,
  receiptEmail,
  refundEmail,
  duplicatePaymentRefundEmail,
  planChangeEmail,
  renewalReceiptEmail,
  signInCodeEmail,
  subscriptionEndedEmail,
  trialReminderEmail,
  type RenderedEmail,
} from './email-templates';
import { REDACTED, redactSecrets, withMerchantFooter } from './emails.service';
import { EmailDocument, PLAIN_TEXT_OPTIONS, renderEmail, type EmailBlock } from './templates/email-layout';

const CANCEL = 'https://roots.example/api/cancel-subscription/Y2FuY2Vs.sig&x=1';
const UPDATE_CARD = 'https://roots.example/roots/update-card/dXBkYXRl.sig&y=2';
const ACTIVATE = 'https://roots.example/api/activate/YWN0aXZhdGU.sig';
const CODE = '804217';
const when = new Date('2026-12-01T00:00:00Z');

/** One email of every kind, its product and plan named `name`. */
function everyEmail(name: string): RenderedEmail[] {
  const product = { productName: name };
  const receipt = {
    ...product,
    chargeId: '0f8fad5b-d9cb-469f-a165-70867728950e',
    chargedAt: when,
    charge: { kind: 'trial', trialDays: 3 } as const,
    planName: name,
    amountMinor: 2499,
    termsText: 'Renews every week until you cancel.',
    nextChargeAt: when,
    nextChargeMinor: 2499,
    renewalPeriod: { unit: 'day', count: 7 } as const,
    cardLast4: '4242',
    cancelUrl: CANCEL,
  };
  return [
    receiptEmail(receipt),
    renewalReceiptEmail({ ...receipt, charge: { kind: 'renewal', period: 2, periodStart: when, periodEnd: when } }),
    trialReminderEmail({ ...receipt, convertsAt: when, renewalPeriod: { unit: 'day', count: 7 } }),
    signInCodeEmail({ ...product, code: CODE, validMinutes: 10 }),
    cancelCodeEmail({ ...product, code: CODE, validMinutes: 10, links: [CANCEL] }),
    cancelConfirmationEmail({ ...product, planName: name, accessUntil: when }),
    refundEmail({ ...product, planName: name, amountMinor: 2499, cardLast4: '4242', refundedAt: when, accessEnded: true }),
    duplicatePaymentRefundEmail({ ...product, planName: name, amountMinor: 2499, accountUrl: 'https://roots.example/roots/sign-in' }),
    purchasesEmail({
      ...product,
      purchases: [{ planName: name, status: 'trialing', trial: true, renews: true, accessUntil: when, cancelUrl: CANCEL }],
    }),
    activationEmail({ ...product, activationUrl: ACTIVATE }),
    accessHelpEmail({ ...product, signInWith: 'google', signInUrl: 'https://roots.example/roots/sign-in' }),
    paymentFailedEmail({
      ...product,
      planName: name,
      amountMinor: 2499,
      cardLast4: '4242',
      declineCode: 'insufficient_funds',
      retryAt: when,
      updateCardUrl: UPDATE_CARD,
      cancelUrl: CANCEL,
    }),
    subscriptionEndedEmail({ ...product, planName: name, declineCode: 'expired_card', startUrl: 'https://roots.example/roots/' }),
    cancelLinkEmail({ ...product, cancelUrl: CANCEL }),
    planChangeEmail({
      ...product,
      fromPlanName: name,
      toPlanName: name,
      effectiveAt: when,
      amountMinor: 4999,
      renewalPeriod: { unit: 'month', count: 3 },
      cardLast4: '4242',
      action: 'requested',
    }),
  ];
}

const plain = everyEmail('Roots');
const hostile = everyEmail('<script>alert("x")</script> & Co');
/** Every link in an email's HTML, as the browser reads it. */
const hrefsOf = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map((match) => match[1]!.replaceAll('&amp;', '&'));

describe('every email is a merchant email rendered by React Email', () => {
  it('there is one of every kind', () => {
    expect(plain.map((email) => email.kind).sort()).toEqual([...EMAIL_KINDS].sort());
  });

  it.each(plain.map((email) => [email.kind, email] as const))('%s: a full HTML document under the product name', (_kind, email) => {
    expect(email.html).toMatch(/^<!DOCTYPE html PUBLIC "-\/\/W3C\/\/DTD XHTML 1\.0 Transitional\/\/EN"/);
    expect(email.html).toMatch(/<html[^>]*lang="en"[^>]*><head>.*<\/head><body[^>]*>.*<\/body><\/html>$/s);
    expect(email.html).toMatch(/<h1[^>]*>Roots<\/h1>/);
    expect(email.html).toContain(`<title>${escapeHtml(email.subject)}</title>`);
    // Inline styles only: email clients drop style sheets.
    expect(email.html).not.toContain('<style');
    expect(email.html).toMatch(/<p style="[^"]+">/);
  });

  it.each(plain.map((email) => [email.kind, email] as const))('%s: the text part is plain text, header first', (_kind, email) => {
    expect(email.text).not.toMatch(/<\/?[a-z][^>]*>/i);
    expect(email.text).not.toMatch(/&(?:amp|lt|gt|quot|#\d+|#x[\da-f]+);/i);
    expect(email.text.startsWith('Roots\n\n')).toBe(true);
    // Every link of the HTML is readable in the text, and none twice in a row (the button is skipped there).
    for (const href of new Set(hrefsOf(email.html))) {
      expect(email.text).toContain(href);
      expect(email.text).not.toContain(`${href} ${href}`);
    }
  });

  it.each(plain.map((email) => [email.kind, email] as const))(
    '%s: every secret is in both parts and redaction finds it',
    (_kind, email) => {
      for (const secret of email.secrets) {
        expect(email.text).toContain(secret);
        expect(email.html).toContain(escapeHtml(secret));
      }
      const stored = redactSecrets(email);
      for (const secret of email.secrets) {
        for (const part of [stored.text, stored.html]) {
          expect(part).not.toContain(secret);
          expect(part).not.toContain(escapeHtml(secret));
        }
      }
      if (email.secrets.some((secret) => secret.startsWith('https://'))) expect(stored.html).toContain(`href="${REDACTED}"`);
    },
  );

  it.each(hostile.map((email) => [email.kind, email] as const))('%s: a name with markup is text in the HTML', (_kind, email) => {
    expect(email.html).not.toContain('<script');
    expect(email.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co');
    // The text part says what was typed.
    expect(email.text).toContain('<script>alert("x")</script> & Co');
  });

  it('a secret with every character HTML escapes is still found in the HTML (escaped as React escapes it)', () => {
    const odd = `https://roots.example/activate/a&b<c>d"e'f`;
    const email = activationEmail({ productName: 'Roots', activationUrl: odd });
    expect(email.html).toContain(escapeHtml(odd));
    const stored = redactSecrets(email);
    expect(stored.html).not.toMatch(/a&(?:amp;)?b/);
    expect(stored.text).not.toContain(odd);
  });

  it('links are buttons and plain URLs', () => {
    const failed = plain.find((email) => email.kind === 'payment_failed')!;
    expect(failed.secrets).toEqual([UPDATE_CARD, CANCEL]);
    expect(failed.text).toContain(`Have another card? Add it here and we try the payment again right away: ${UPDATE_CARD}`);
    expect(failed.text).toContain('We will try again on December 1, 2026. Your access goes on until then.');
    expect(failed.text).toContain(`Not staying? Cancel in one click and nothing more will be charged: ${CANCEL}`);
    // The update-card link twice (the button, the plain URL); the cancel link once, as a plain URL.
    expect(hrefsOf(failed.html)).toEqual([UPDATE_CARD, UPDATE_CARD, CANCEL]);
    expect(failed.html).toMatch(/<a href="[^"]+"[^>]*><span>.*?Update your card<\/span>/);
    expect(failed.text).not.toMatch(/^Update your card$/m);
  });

  it('renders what React Email’s own asynchronous render makes of the same components', async () => {
    const blocks: EmailBlock[] = [
      'A <b>paragraph</b> & more.',
      { text: 'A link:', url: CANCEL, button: 'Press' },
      { text: 'No button:', url: ACTIVATE },
    ];
    const email = { kind: 'activation', subject: 'S & s', productName: 'Roots', blocks, secrets: [] } as const;
    const element = createElement(EmailDocument, email);
    const theirs = await render(element);
    const ours = renderEmail(email);
    // The streaming renderer marks its Suspense boundary, each document element and each seam
    // between two text nodes with a comment (for hydration); nothing else differs.
    expect(ours.html).toBe(theirs.replace(/<!--(?:\/?\$|html|head|body| )-->/g, ''));
    expect(ours.text).toBe(await render(element, { plainText: true, htmlToTextOptions: PLAIN_TEXT_OPTIONS }));
  });
});

describe('the merchant footer', () => {
  const merchant = { name: 'Roots <Ops> Ltd', address: '1 Example Street, Berlin', support: 'support@roots.example' };

  it('is added under the email, in its body, escaped, and after the signature delimiter in the text', () => {
    const email = plain[0]!;
    const sent = withMerchantFooter(email, merchant);
    expect(sent.text).toBe(
      `${email.text}\n\n-- \nRoots <Ops> Ltd, 1 Example Street, Berlin\nQuestions? Reply to this email or write to support@roots.example.`,
    );
    expect(sent.html.startsWith(email.html.slice(0, email.html.indexOf('</body>')))).toBe(true);
    expect(sent.html).toMatch(
      /<hr[^>]*\/><p[^>]*>Roots &lt;Ops&gt; Ltd, 1 Example Street, Berlin<br\/>Questions\? Reply to this email or write to support@roots\.example\.<\/p>.*<\/body><\/html>$/,
    );
  });

  it('takes a merchant name with `$` as written', () => {
    const sent = withMerchantFooter(plain[0]!, { ...merchant, name: "Dollar $' $& Ltd" });
    expect(sent.html).toContain('Dollar $&#x27; $&amp; Ltd, 1 Example Street');
  });
});

describe('receipts, cancel and refund emails say what happened (issue 35)', () => {
  const receipt = {
    productName: 'Roots',
    chargeId: '0f8fad5b-d9cb-469f-a165-70867728950e',
    chargedAt: new Date('2026-11-24T09:00:00Z'),
    planName: 'Weekly Plan',
    amountMinor: 2499,
    termsText: 'Today you pay $1 for your 3-day trial. Then $24.99 every week, charged automatically to the same card until you cancel.',
    acceptedAt: new Date('2026-11-14T10:00:00Z'),
    nextChargeAt: new Date('2026-12-01T09:00:00Z'),
    nextChargeMinor: 2499,
    renewalPeriod: { unit: 'day', count: 7 } as const,
    cardLast4: '4242',
    cancelUrl: CANCEL,
  };

  it('a renewal receipt says which renewal it was, its date and period, and never the first charge’s words', () => {
    const renewal = renewalReceiptEmail({
      ...receipt,
      charge: { kind: 'renewal', period: 2, periodStart: new Date('2026-11-24T09:00:00Z'), periodEnd: new Date('2026-12-01T09:00:00Z') },
    });
    expect(renewal.text).toContain('Receipt R-0F8FAD5BD9CB, November 24, 2026');
    expect(renewal.text).toContain('Your Weekly Plan renewed.');
    expect(renewal.text).toContain('Charged for: renewal 2 of Weekly Plan, for November 24, 2026 to December 1, 2026.');
    expect(renewal.text).toContain('Charged under the terms you accepted on November 14, 2026.');
    expect(renewal.text).not.toMatch(/Thank you for your purchase|Today you pay|trial/);
  });

  it('a first receipt names what was bought: the trial, a first period, a one-time pack or an add-on', () => {
    expect(receiptEmail({ ...receipt, charge: { kind: 'trial', trialDays: 3 } }).text).toContain(
      'Charged for: the 3-day trial of Weekly Plan.',
    );
    expect(receiptEmail({ ...receipt, planName: '3-Month Plan', charge: { kind: 'first_period' } }).text).toContain(
      'Charged for: the first period of 3-Month Plan.',
    );
    expect(receiptEmail({ ...receipt, planName: 'Profile Pro', charge: { kind: 'add_on' } }).text).toContain(
      'Charged for: Profile Pro, a one-time add-on to your plan.',
    );
    expect(receiptEmail({ ...receipt, planName: 'Ultimate Pack', charge: { kind: 'one_time' } }).text).toContain(
      'Charged for: Ultimate Pack, a one-time purchase.',
    );
  });

  it('a whole refund says access ended now; a cancel says until when it lasts; one date format', () => {
    const at = new Date('2026-11-20T15:00:00Z');
    const whole = refundEmail({
      productName: 'Roots',
      planName: 'Weekly Plan',
      amountMinor: 2499,
      cardLast4: '4242',
      refundedAt: at,
      accessEnded: true,
    });
    expect(whole.text).toContain('Weekly Plan has ended with this refund: your access ended on November 20, 2026');
    expect(whole.text).not.toContain('lasts until');
    const part = refundEmail({
      productName: 'Roots',
      planName: 'Weekly Plan',
      amountMinor: 500,
      cardLast4: null,
      refundedAt: at,
      accessEnded: false,
    });
    expect(part.text).toContain('Weekly Plan and your access are unchanged');
    const cancel = cancelConfirmationEmail({
      productName: 'Roots',
      planName: 'Weekly Plan',
      accessUntil: new Date('2026-12-01T09:00:00Z'),
    });
    expect(cancel.text).toContain('Your access lasts until December 1, 2026.');
    for (const email of everyEmail('Roots')) expect(email.text, email.subject).not.toMatch(/\d{4}-\d{2}-\d{2}|trialing|past_due/);
  });
});
