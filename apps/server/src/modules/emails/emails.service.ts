import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database';
import type { Executor } from '../../db/executor';
import type { Clock } from '../../lib/clock';
import { openSealed, seal } from '../../lib/sealed-box';
import { escapeHtml, type RenderedEmail } from './email-templates';
import { merchantFooterHtml } from './templates/email-layout';
import type { EmailsRepository, StoredEmail } from './emails.repository';
import type { Mailer } from './mailer';

/** What stands in a stored email for a code or link that only its recipient may see. */
export const REDACTED = '[redacted]';
const SEAL_PURPOSE = 'email-outbox';

/** The merchant every email names: legal name, postal address, and the support address replies reach. */
export type MerchantIdentity = { name: string; address: string | null; support: string };

/** An email as it goes out: subject, text and html. */
type Sendable = Pick<RenderedEmail, 'subject' | 'text' | 'html'>;

/**
 * Every email ends with who sends it and how to reach a person: the merchant's legal name and
 * address, and the support address (which replies also reach). Added when the email is sent, so
 * the stored copy (and a copy an operator resends) never holds it twice. A no-reply sender that
 * says "write to our support" without saying where is what issue 23 found.
 */
export function withMerchantFooter(email: Sendable, merchant: MerchantIdentity): Sendable {
  const identity = merchant.address ? `${merchant.name}, ${merchant.address}` : merchant.name;
  const lines = [identity, `Questions? Reply to this email or write to ${merchant.support}.`];
  return {
    subject: email.subject,
    // '-- ' is the signature delimiter mail clients recognise.
    text: `${email.text}\n\n-- \n${lines.join('\n')}`,
    // Under the email's card, inside its body; a function, so no `$` in the footer is a replacement pattern.
    html: email.html.replace('</body>', () => `${merchantFooterHtml(lines)}</body>`),
  };
}

/**
 * The email as it may rest in the database, the console and the data download: every secret
 * replaced by {@link REDACTED} (in the html, also its escaped form). Longest first, so a link is
 * removed whole even when a shorter secret is part of it.
 */
export function redactSecrets(email: RenderedEmail): Sendable {
  const secrets = [...new Set(email.secrets)].filter((secret) => secret.length > 0).sort((a, b) => b.length - a.length);
  const hide = (value: string, forms: (secret: string) => string[]) =>
    secrets.reduce((out, secret) => forms(secret).reduce((acc, form) => acc.replaceAll(form, REDACTED), out), value);
  const plain = (secret: string) => [secret];
  return {
    subject: hide(email.subject, plain),
    text: hide(email.text, plain),
    html: hide(email.html, (secret) => [escapeHtml(secret), secret]),
  };
}

/**
 * A stored (redacted) email made sendable again with `secret` where the marks are: for an email
 * whose only secret was one value issued afresh (a receipt's one-click cancel link, resent by an
 * operator). Without a mark there is nothing to restore and no secret.
 */
export function withSecretRestored(stored: Sendable & { kind: string }, secret: string): RenderedEmail {
  const restored = (value: string, form: string) => value.replaceAll(REDACTED, form);
  return {
    kind: stored.kind as RenderedEmail['kind'],
    subject: restored(stored.subject, secret),
    text: restored(stored.text, secret),
    html: restored(stored.html, escapeHtml(secret)),
    secrets: stored.text.includes(REDACTED) ? [secret] : [],
  };
}

/** Attempts before an email is marked failed. */
const MAX_DELIVERY_ATTEMPTS = 5;
const CLAIM_MS = 60_000;
/**
 * An email is sent only while this much of its claim is left: a batch that ran slow stops before
 * another instance may claim the same rows, so no email goes out twice (ADR 117).
 */
const SEND_MARGIN_MS = 15_000;

/**
 * Emails go through an outbox: `enqueue` writes the row in the caller's transaction (so an email
 * exists exactly when the fact it reports was committed); `deliverPending` sends what is pending.
 */
export class EmailsService {
  constructor(
    private readonly db: Db,
    private readonly repository: EmailsRepository,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly from: string,
    private readonly log: FastifyBaseLogger,
    /** Seals emails that carry a secret while they wait for delivery (APP_SECRET). */
    private readonly sealSecret: string,
    /** Who sends every email, and where a reply reaches (issue 23: receipts a merchant can send). */
    private readonly merchant: MerchantIdentity,
  ) {}

  /**
   * Queues `email` in the caller's transaction. What is stored is redacted; an email with secrets is
   * also kept sealed until it is delivered, then the sealed copy is dropped (issue 22).
   */
  enqueue(tx: Executor, dedupeKey: string, to: string, email: RenderedEmail): Promise<boolean> {
    const sendable: Sendable = { subject: email.subject, text: email.text, html: email.html };
    const stored: StoredEmail = {
      kind: email.kind,
      ...redactSecrets(email),
      sealed: email.secrets.length > 0 ? seal(this.sealSecret, SEAL_PURPOSE, JSON.stringify(sendable)) : null,
    };
    return this.repository.enqueue(tx, { dedupeKey, to, email: stored, now: this.clock.now() });
  }

  /** The email to send for an outbox row: the sealed original, or the stored text when it had no secret. */
  private sendable(row: Sendable & { sealed: string | null }): Sendable | undefined {
    if (row.sealed === null) return { subject: row.subject, text: row.text, html: row.html };
    const opened = openSealed(this.sealSecret, SEAL_PURPOSE, row.sealed);
    return opened === undefined ? undefined : (JSON.parse(opened) as Sendable);
  }

  /** Delivers pending emails (any instance may call it; claims keep each email to one sender). */
  async deliverPending(limit = 50): Promise<number> {
    const batch = await this.repository.claimPending(this.db, this.clock.now(), CLAIM_MS, limit, MAX_DELIVERY_ATTEMPTS);
    const claimEndsMs = this.clock.now().getTime() + CLAIM_MS;
    for (const row of batch) {
      // The rest of the batch stays claimed until the lease ends; the next pass (any instance) takes it.
      if (this.clock.now().getTime() > claimEndsMs - SEND_MARGIN_MS) break;
      const content = this.sendable(row);
      if (!content) {
        // Sealed under another APP_SECRET (rotated since): it cannot be sent as written.
        this.log.warn({ emailId: row.id, kind: row.kind }, 'email sealed with another secret; not sent');
        await this.repository.markDelivered(this.db, row.id, 'failed', this.clock.now());
        continue;
      }
      try {
        const status = await this.mailer.deliver({
          id: row.id,
          from: this.from,
          replyTo: this.merchant.support,
          to: row.to,
          ...withMerchantFooter(content, this.merchant),
        });
        await this.repository.markDelivered(this.db, row.id, status, this.clock.now());
      } catch (error) {
        const final = row.attempts >= MAX_DELIVERY_ATTEMPTS;
        this.log.warn({ emailId: row.id, kind: row.kind, attempts: row.attempts, err: error }, 'email delivery failed');
        await this.repository.markDelivered(this.db, row.id, final ? 'failed' : 'pending', this.clock.now());
      }
    }
    return batch.length;
  }

  private delivering: Promise<void> | undefined;
  private kickedAgain = false;

  /**
   * Kicks delivery without making the caller wait; kicks during a running pass coalesce into one
   * more pass (the scheduler retries whatever this misses).
   */
  kick(): void {
    if (this.delivering) {
      this.kickedAgain = true;
      return;
    }
    this.delivering = (async () => {
      do {
        this.kickedAgain = false;
        await this.deliverPending();
      } while (this.kickedAgain);
    })()
      .catch((error: unknown) => this.log.warn({ err: error }, 'email delivery pass failed'))
      .finally(() => {
        this.delivering = undefined;
      });
  }

  /** Resolves when the running delivery pass (if any) ends; for orderly shutdown. */
  async idle(): Promise<void> {
    await this.delivering;
  }

  list(limit = 100) {
    return this.repository.list(this.db, limit);
  }

  /** The development inbox: outbox emails, the delivered ones as the recipient got them. */
  devInbox(limit = 100) {
    return this.repository.devInbox(this.db, limit);
  }
}
