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
    renewalReceiptEmail({ ...receipt, period: 2 }),
    trialReminderEmail({ ...receipt, convertsAt: when, renewalPeriod: { unit: 'day', count: 7 } }),
    signInCodeEmail({ ...product, code: CODE, validMinutes: 10 }),
    cancelCodeEmail({ ...product, code: CODE, validMinutes: 10, links: [CANCEL] }),
    cancelConfirmationEmail({ ...product, planName: name, accessUntil: when }),
    refundEmail({ ...product, amountMinor: 2499, cardLast4: '4242' }),
    duplicatePaymentRefundEmail({ ...product, planName: name, amountMinor: 2499, accountUrl: 'https://roots.example/roots/sign-in' }),
    purchasesEmail({ ...product, purchases: [{ planName: name, status: 'trialing', accessUntil: when, cancelUrl: CANCEL }] }),
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
    expect(failed.text).toContain('We will try again on 2026-12-01. Your access goes on until then.');
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
