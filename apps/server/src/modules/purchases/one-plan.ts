import { API_MESSAGES, formatMessage } from '@roots/contracts';
import { RENEWING_STATUSES } from '@roots/contracts/subscriptions';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/executor';
import { subscriptions } from '../../db/schema';
import { AppError } from '../../errors';
import { maskEmail, normalizeEmail } from '../../lib/mask';
import { agreedTermsOf } from '../terms/plan-terms';
import { rowsOf } from '../emails/emails.repository';
import type { SubscriptionRow } from '../subscriptions/subscriptions.repository';
import type { BillingContext } from '../subscriptions/context';

/** How a duplicate's money comes back: the claimed payment, or the first charge of a purchase made. */
export type DuplicateRefunds = {
  /** A payment set aside (a failed intent naming the owner): refunded now; true once it went through. */
  payment: (executionId: string) => Promise<boolean>;
  /** A duplicate purchase that was made: its first charge refunded in full, which ends it; the minor units refunded. */
  purchase: (row: SubscriptionRow) => Promise<number>;
};

/**
 * One customer, one plan (issue 35, ADR 196). A live plan is a subscription with no parent of a
 * recurring plan that still renews (trialing, active, past due). Completion takes the email's
 * purchase lock before it writes, so two browsers completing at once see each other; a duplicate
 * of the proven owner is refused and refunded at once; one made under an email that was only a
 * claim is settled when the owner proves it (the claim) or, unclaimed, after the sweep's grace.
 * The plan kept is always the oldest, so any number of claims and passes refund the same rows.
 */
export class OnePlan {
  private refunds: DuplicateRefunds | undefined;

  constructor(private readonly context: BillingContext) {}

  /** The refund paths (the payment sweep's and the charge ledger's), wired once both exist. */
  useRefunds(refunds: DuplicateRefunds): void {
    this.refunds = refunds;
  }

  private get refund(): DuplicateRefunds {
    if (!this.refunds) throw new Error('OnePlan used before its refund paths were wired');
    return this.refunds;
  }

  /**
   * Serialises the purchases of `email` until `tx` ends (every instance, one database): a
   * transaction-scoped advisory lock, so a read of the email's plans then a write is safe.
   */
  async lock(tx: Tx, email: string): Promise<void> {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`purchase:${normalizeEmail(email)}`}))`);
  }

  /** True for a subscription that is a live plan. */
  isLivePlan(row: SubscriptionRow): boolean {
    return (
      row.parentId === null &&
      (RENEWING_STATUSES as readonly string[]).includes(row.status) &&
      agreedTermsOf(this.context.config.catalog, row)?.recurring === true
    );
  }

  /** The live plans bought with `email`, oldest first. */
  async livePlansOf(db: Executor, email: string): Promise<SubscriptionRow[]> {
    const rows = await db
      .select()
      .from(subscriptions)
      .where(
        and(
          eq(subscriptions.email, normalizeEmail(email)),
          isNull(subscriptions.parentId),
          inArray(subscriptions.status, [...RENEWING_STATUSES]),
        ),
      )
      .orderBy(asc(subscriptions.createdAt), asc(subscriptions.id));
    return rows.filter((row) => this.isLivePlan(row));
  }

  /** The plan's name as its owner agreed to it. */
  planName(row: Pick<SubscriptionRow, 'planId' | 'agreedTerms'>): string {
    return agreedTermsOf(this.context.config.catalog, row)?.name ?? row.planId;
  }

  /**
   * The proven owner's payment for a plan beside `owned` (set aside already): refunded now, and the
   * answer that says so; if the refund could not go through now, the answer says the sweep will.
   */
  async refuseDuplicatePayment(
    executionId: string,
    owned: Pick<SubscriptionRow, 'id' | 'email' | 'planId' | 'agreedTerms'>,
  ): Promise<AppError> {
    const refunded = await this.refund.payment(executionId).catch((error: unknown) => {
      this.context.log.warn({ executionId, err: error }, 'duplicate payment: refund left to the payment sweep');
      return false;
    });
    this.context.emails.kick();
    this.context.log.warn(
      { executionId, subscriptionId: owned.id, refunded, email: maskEmail(owned.email) },
      'payment for a plan beside a live plan of its proven owner: no second subscription',
    );
    if (!refunded) return new AppError('ALREADY_OWNED', API_MESSAGES.alreadyOwnedPaidTwice);
    return new AppError('ALREADY_OWNED', formatMessage(API_MESSAGES.alreadyOwnedRefunded, { plan: this.planName(owned) }));
  }

  /**
   * A payment the route found the request's browser or account owns (set aside already): refunded
   * now, the answer naming the live plan of `ownerEmail` it duplicates (or, for a pack, the pack).
   */
  async refusePaidTwice(executionId: string, planId: string, ownerEmail: string): Promise<AppError> {
    const live = await this.livePlansOf(this.context.db, ownerEmail);
    const owned = live.find((row) => row.planId === planId) ?? live[0];
    return this.refuseDuplicatePayment(executionId, owned ?? { id: '', email: ownerEmail, planId, agreedTerms: null });
  }

  /**
   * The claim (ADR 196): the signed-in owner links `claimed`, so `ownerRows` (every purchase of
   * their account and verified email, `claimed` linked) are proven theirs. Every live plan but the
   * oldest is refunded in full now, which ends it. When `claimed` is such a duplicate (refunded now
   * or before), the answer says so, naming the plan kept; otherwise undefined.
   */
  async settleAtClaim(
    ownerRows: readonly SubscriptionRow[],
    claimed: SubscriptionRow,
  ): Promise<{ plan_name: string; message: string } | undefined> {
    const [kept, ...duplicates] = ownerRows
      .filter((row) => this.isLivePlan(row))
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
    const refundedNow = new Set<string>();
    for (const row of duplicates) {
      // A refund the gateway refuses now (down, or the charge disputed) is the backstop's to retry;
      // the claim itself stands.
      try {
        await this.refund.purchase(row);
        refundedNow.add(row.id);
        this.context.log.warn(
          { subscriptionId: row.id, kept: kept?.id, email: maskEmail(row.email) },
          'a second live plan of one customer refunded at claim',
        );
      } catch (error) {
        this.context.log.warn({ subscriptionId: row.id, err: error }, 'a second live plan at claim: refund left for the next pass');
      }
    }
    if (refundedNow.size > 0) this.context.emails.kick();
    if (
      !kept ||
      kept.id === claimed.id ||
      claimed.parentId !== null ||
      agreedTermsOf(this.context.config.catalog, claimed)?.recurring !== true
    )
      return undefined;
    const refunded =
      refundedNow.has(claimed.id) ||
      (await this.context.charges.chargesOf(claimed.id)).some(
        (charge) => charge.kind === 'first' && charge.status === 'succeeded' && charge.refundedMinor >= charge.amountMinor,
      );
    if (!refunded) return undefined;
    const plan = this.planName(kept);
    return { plan_name: plan, message: formatMessage(API_MESSAGES.alreadyOwnedRefunded, { plan }) };
  }

  /**
   * The backstop: duplicates nobody claimed, bought more than `graceMs` ago, are refunded (the
   * owner gets the refund email). Returns how many were refunded.
   */
  async refundUnclaimed(graceMs: number, limit = 50): Promise<number> {
    const { db, clock } = this.context;
    const before = new Date(clock.now().getTime() - graceMs);
    // Emails with a live plan bought before `before` beside an older one (the SQL narrows; the rows decide).
    const result = await db.execute(sql`
      select distinct newer.email as email from subscriptions newer
      join subscriptions older on older.email = newer.email and older.id <> newer.id
        and (older.created_at, older.id) < (newer.created_at, newer.id)
      where newer.parent_id is null and older.parent_id is null
        and newer.status in ${[...RENEWING_STATUSES]} and older.status in ${[...RENEWING_STATUSES]}
        -- one-time purchases (a pack, a report) are no plan: left out here, or 50 such customers fill every pass
        and coalesce((newer.agreed_terms->>'recurring')::boolean, true) and coalesce((older.agreed_terms->>'recurring')::boolean, true)
        and newer.created_at < ${before.toISOString()}
      limit ${limit}`);
    const emails = rowsOf<{ email: string }>(result).map((row) => row.email);
    let refunded = 0;
    for (const email of emails) {
      const [kept, ...duplicates] = await this.livePlansOf(db, email);
      if (!kept) continue;
      for (const row of duplicates.filter((candidate) => candidate.createdAt < before)) {
        try {
          if ((await this.refund.purchase(row)) > 0) {
            refunded += 1;
            this.context.log.warn(
              { subscriptionId: row.id, kept: kept.id, email: maskEmail(email) },
              'a second live plan of one customer refunded, unclaimed after the grace',
            );
          }
        } catch (error) {
          this.context.log.warn({ subscriptionId: row.id, err: error }, 'unclaimed duplicate plan: refund left for the next pass');
        }
      }
    }
    if (refunded > 0) this.context.emails.kick();
    return refunded;
  }
}
