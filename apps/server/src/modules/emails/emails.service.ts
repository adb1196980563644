import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database';
import type { Executor } from '../../db/executor';
import type { Clock } from '../../lib/clock';
import type { RenderedEmail } from './email-templates';
import type { EmailsRepository } from './emails.repository';
import type { Mailer } from './mailer';

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
  ) {}

  enqueue(tx: Executor, dedupeKey: string, to: string, email: RenderedEmail): Promise<boolean> {
    return this.repository.enqueue(tx, { dedupeKey, to, email, now: this.clock.now() });
  }

  /** Delivers pending emails (any instance may call it; claims keep each email to one sender). */
  async deliverPending(limit = 50): Promise<number> {
    const batch = await this.repository.claimPending(this.db, this.clock.now(), CLAIM_MS, limit, MAX_DELIVERY_ATTEMPTS);
    const claimEndsMs = this.clock.now().getTime() + CLAIM_MS;
    for (const row of batch) {
      // The rest of the batch stays claimed until the lease ends; the next pass (any instance) takes it.
      if (this.clock.now().getTime() > claimEndsMs - SEND_MARGIN_MS) break;
      try {
        const status = await this.mailer.deliver({ from: this.from, to: row.to, subject: row.subject, text: row.text, html: row.html });
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
}
