import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RootsApp } from '../../app';
import type { Database } from '../../db/database';
import { emails } from '../../db/schema';
import { buildTestApp, openTestDatabase, testDatabases } from '../../test/helpers';
import { cancelLinkEmail } from '../admin/admin-emails';
import {
  activationEmail,
  cancelCodeEmail,
  paymentFailedEmail,
  purchasesEmail,
  receiptEmail,
  signInCodeEmail,
  trialReminderEmail,
  type RenderedEmail,
} from './email-templates';
import { REDACTED, redactSecrets, withSecretRestored } from './emails.service';

const LINK = 'https://roots.example/api/cancel-subscription/c2VjcmV0.token&x=1';
const UPDATE_CARD_LINK = 'https://roots.example/roots/update-card/dXBkYXRl.token&x=1';
const CODE = '804217';

/** One email of every kind that carries a secret, and the secret it carries. */
const WITH_SECRETS: Array<[string, RenderedEmail, string[]]> = [
  ['sign-in code', signInCodeEmail({ productName: 'Roots', code: CODE, validMinutes: 10 }), [CODE]],
  ['cancel code', cancelCodeEmail({ productName: 'Roots', code: CODE, validMinutes: 10, links: [LINK] }), [CODE, LINK]],
  [
    'receipt',
    receiptEmail({
      chargeId: '0f8fad5b-d9cb-469f-a165-70867728950e',
      chargedAt: new Date('2026-11-24T09:00:00Z'),
      charge: { kind: 'trial', trialDays: 3 },
      productName: 'Roots',
      planName: 'Weekly',
      amountMinor: 100,
      termsText: 't',
      nextChargeAt: null,
      nextChargeMinor: null,
      cardLast4: null,
      cancelUrl: LINK,
    }),
    [LINK],
  ],
  [
    'trial reminder',
    trialReminderEmail({
      productName: 'Roots',
      planName: 'Weekly',
      convertsAt: new Date('2026-12-01T00:00:00Z'),
      amountMinor: 2499,
      renewalPeriod: { unit: 'day', count: 7 },
      cardLast4: null,
      cancelUrl: LINK,
    }),
    [LINK],
  ],
  [
    'purchases',
    purchasesEmail({
      productName: 'Roots',
      purchases: [{ planName: 'Weekly', status: 'trialing', trial: true, renews: true, accessUntil: null, cancelUrl: LINK }],
    }),
    [LINK],
  ],
  ['activation', activationEmail({ productName: 'Roots', activationUrl: LINK }), [LINK]],
  ['operator cancel link', cancelLinkEmail({ productName: 'Roots', cancelUrl: LINK }), [LINK]],
  [
    'payment failed',
    paymentFailedEmail({
      productName: 'Roots',
      planName: 'Weekly',
      amountMinor: 2499,
      cardLast4: '4242',
      declineCode: 'insufficient_funds',
      retryAt: new Date('2026-12-01T00:00:00Z'),
      updateCardUrl: UPDATE_CARD_LINK,
      cancelUrl: LINK,
    }),
    [UPDATE_CARD_LINK, LINK],
  ],
];

describe('redaction of the stored copy', () => {
  it.each(WITH_SECRETS)('%s: the template names its secrets, and the stored copy holds none of them', (_name, email, secrets) => {
    expect([...email.secrets].sort()).toEqual([...secrets].sort());
    const stored = redactSecrets(email);
    for (const secret of secrets) {
      const escaped = secret.replace(/&/g, '&amp;');
      for (const part of [stored.subject, stored.text, stored.html]) {
        expect(part).not.toContain(secret);
        expect(part).not.toContain(escaped);
      }
    }
    expect(stored.text).toContain(REDACTED);
  });

  it('codes are never in a subject', () => {
    for (const [, email] of WITH_SECRETS) expect(email.subject).not.toMatch(/\d{6}/);
  });

  it('a resent receipt gets a fresh link where the stored copy had the mark', () => {
    const stored = { kind: 'receipt', ...redactSecrets(WITH_SECRETS[2]![1]) };
    const resent = withSecretRestored(stored, 'https://roots.example/api/cancel-subscription/new&y=2');
    expect(resent.text).toContain('Cancel any time in one click: https://roots.example/api/cancel-subscription/new&y=2');
    expect(resent.html).toContain('href="https://roots.example/api/cancel-subscription/new&amp;y=2"');
    expect(resent.secrets).toEqual(['https://roots.example/api/cancel-subscription/new&y=2']);
    // A receipt without a link (a one-time pack) has nothing to restore, and no secret.
    const plain = { kind: 'receipt', subject: 's', text: 'No further charges.', html: '<p>No further charges.</p>' };
    expect(withSecretRestored(plain, 'https://x.example/l').secrets).toEqual([]);
  });
});

describe.each(testDatabases())('the outbox keeps secrets sealed until delivery, on $name', ({ url }) => {
  let database: Database;
  let app: RootsApp;

  beforeAll(async () => {
    database = await openTestDatabase(url);
    app = await buildTestApp({ database });
  });
  afterAll(async () => {
    await app.close();
  });

  it('stores a redacted copy, delivers the original, then drops the sealed copy', async () => {
    const [, email] = WITH_SECRETS[1]!;
    expect(await app.roots.emails.enqueue(database.db, 'outbox-secrets:1', 'jane@example.com', email)).toBe(true);
    const [pending] = await database.db.select().from(emails).where(eq(emails.dedupeKey, 'outbox-secrets:1'));
    expect(pending!.sealed).toEqual(expect.any(String));
    expect(JSON.stringify(pending)).not.toContain(CODE);
    expect(JSON.stringify(pending)).not.toContain('c2VjcmV0');

    await app.roots.emails.deliverPending();
    const [delivered] = await database.db.select().from(emails).where(eq(emails.id, pending!.id));
    expect(delivered).toMatchObject({ status: 'stored', sealed: null });
    expect(JSON.stringify(delivered)).not.toContain(CODE);
    // The recipient's inbox (the dev mailbox stands for it) got the email as written.
    const inbox = (await app.inject('/dev/mailbox.json')).json<{ messages: Array<{ id: string; text: string; subject: string }> }>();
    const received = inbox.messages.find((message) => message.id === pending!.id);
    // As written, with the merchant's footer (who sends it, where a reply goes).
    expect(received?.text.startsWith(email.text)).toBe(true);
    // Development defaults that read as examples (issue 35: `support@roots.local`): legal name, address, support.
    expect(received?.text).toContain(
      'Roots Example Ltd, 1 Example Street, Example City\nQuestions? Reply to this email or write to support@roots.example.com.',
    );
    expect(received?.subject).toBe('Your Roots cancellation code');
  });

  it('an email with no secret is stored as written and never sealed', async () => {
    const email = { ...WITH_SECRETS[2]![1], secrets: [] as string[] };
    await app.roots.emails.enqueue(database.db, 'outbox-secrets:2', 'jane@example.com', email);
    const [row] = await database.db.select().from(emails).where(eq(emails.dedupeKey, 'outbox-secrets:2'));
    // As written: the merchant's footer is added when it is sent, not to the stored copy.
    expect(row).toMatchObject({ sealed: null, text: email.text, html: email.html });
  });
});
