import { MESSAGES } from '@roots/contracts';
import type { MeResponse, SignedInUserSummary } from '@roots/contracts/auth';
import type { AccessRecoveryResponse, Profile, ProfileResponse } from '@roots/contracts/account';
import type { CancelOutcome, SubscriptionSummary } from '@roots/contracts/subscriptions';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import type { Executor } from '../../db/executor';
import { authAccounts } from '../../db/schema';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock';
import { normalizeEmail } from '../../lib/mask';
import { accessHelpEmail } from '../emails/email-templates';
import type { EmailsService } from '../emails/emails.service';
import type { SessionUser, SignInCodeSender } from '../auth/session';
import type { CancellationService } from '../cancellation/cancellation.service';
import type { SubscriptionsService } from '../subscriptions/subscriptions.service';
import type { SubscriptionRow } from '../subscriptions/subscriptions.repository';
import type { AccountRepository } from './account.repository';
import { assertOwner } from '../identity/ownership';

/** Deletes what another module keeps for a user (e.g. reports), inside the delete transaction. */
export type UserDataEraser = (tx: Executor, user: SessionUser) => Promise<void>;

export type AccountDependencies = {
  db: Db;
  repository: AccountRepository;
  subscriptions: SubscriptionsService;
  /** The account's list shows each pending plan change (ADR 196). */
  planChanges: { withPendingChanges(summaries: SubscriptionSummary[]): Promise<SubscriptionSummary[]> };
  cancellation: CancellationService;
  clock: Clock;
  /** Modules that keep per-user data (reports) register here so 'Delete my data' reaches them. */
  erasers: readonly UserDataEraser[];
  emails: EmailsService;
  productName: string;
  /** The product's sign-in page, named in the access-help email. */
  signInUrl: string;
  log: FastifyBaseLogger;
};

/** The signed-in area: who am I, my profile, my subscriptions, my access, delete my data. */
export class AccountService {
  constructor(private readonly deps: AccountDependencies) {}

  async summary(user: SessionUser): Promise<SignedInUserSummary> {
    const accounts = await this.deps.db
      .select({ providerId: authAccounts.providerId, accountId: authAccounts.accountId })
      .from(authAccounts)
      .where(eq(authAccounts.userId, user.id));
    const redirect = accounts.find((account) => account.providerId === 'google' || account.providerId === 'apple');
    const providerId = redirect?.providerId ?? 'email';
    return {
      uid: user.id,
      email: user.email ?? '',
      displayName: user.name ?? '',
      providerId,
      providerDataId: redirect?.accountId ?? user.email,
      isAppleAuth: providerId === 'apple',
      isGoogleAuth: providerId === 'google',
    };
  }

  async mySubscriptions(user: SessionUser): Promise<SubscriptionSummary[]> {
    const rows = await this.deps.repository.subscriptionsOf(this.deps.db, user);
    const summaries = await this.deps.subscriptions.summaries(rows);
    return this.deps.planChanges.withPendingChanges(summaries);
  }

  async me(user: SessionUser): Promise<MeResponse> {
    const [summary, subscriptions] = await Promise.all([this.summary(user), this.mySubscriptions(user)]);
    return {
      user: summary,
      has_purchase: subscriptions.length > 0,
      access: [...new Set(subscriptions.flatMap((subscription) => subscription.access))],
      session_expires_at: user.sessionExpiresAt.toISOString(),
    };
  }

  async profile(user: SessionUser): Promise<ProfileResponse> {
    const row = await this.deps.repository.profile(this.deps.db, user.id);
    return { name: row?.name ?? (user.name || null), birth_date: row?.birthDate ?? null, birth_time: row?.birthTime ?? null };
  }

  async updateProfile(user: SessionUser, profile: Profile): Promise<ProfileResponse> {
    const now = this.deps.clock.now();
    await this.deps.db.transaction(async (tx) => {
      await this.deps.repository.upsertProfile(tx, {
        userId: user.id,
        name: profile.name,
        birthDate: profile.birth_date,
        birthTime: profile.birth_time,
        updatedAt: now,
      });
      await this.deps.repository.setName(tx, user.id, profile.name, now);
    });
    return { name: profile.name, birth_date: profile.birth_date, birth_time: profile.birth_time };
  }

  /** Cancels one of the user's own subscriptions at period end; someone else's answers 404. */
  /**
   * The owner's cancel from the account; `refund` asks for the money-back guarantee's refund with it
   * (the guarantee decides; for a one-time pack the refund is what ends it).
   */
  async cancelMine(
    user: SessionUser,
    subscriptionId: string,
    refund = false,
    admit?: (row: SubscriptionRow) => Promise<void>,
  ): Promise<CancelOutcome> {
    const rows = await this.deps.repository.subscriptionsOf(this.deps.db, user);
    const row = assertOwner(
      user,
      rows.find((candidate) => candidate.id === subscriptionId),
    );
    if (!refund) {
      await this.deps.cancellation.cancel(row);
      return { message: MESSAGES.subscriptionCanceled };
    }
    return this.deps.cancellation.cancelOwned(row, true, admit && (() => admit(row)));
  }

  private readonly recoveries = new Set<Promise<void>>();

  /**
   * Access recovery (ADR 072, amended by ADR 136): a customer gives the email they paid with. Every
   * request gets the same answer at once, whatever the email bought (issue 22: the answer and its
   * timing told whether an address had a purchase); the work happens after answering. When signing
   * in with that email reaches a purchase (one not linked yet, or one linked to that email's account),
   * a one-time sign-in code goes to it; when the purchase was finalized into an account that signs
   * in another way, the address is told which way (no other address is ever named); otherwise nothing
   * is sent.
   * Never refused for the email (ADR 167): the code emails are shaped where they are sent
   * (SignInLimits.codeEmail), the access-help email goes at most once an hour (its outbox key).
   */
  recoverAccess(email: string, codes: SignInCodeSender): AccessRecoveryResponse {
    const work: Promise<void> = this.deliverRecovery(email, codes)
      .catch((error: unknown) => this.deps.log.warn({ err: error }, 'access recovery failed'))
      .finally(() => this.recoveries.delete(work));
    this.recoveries.add(work);
    return { outcome: 'sent' };
  }

  private async deliverRecovery(email: string, codes: SignInCodeSender): Promise<void> {
    const { db, repository, emails, productName, signInUrl } = this.deps;
    const [links, userId] = await Promise.all([repository.purchaseLinksOf(db, email), repository.userIdByEmail(db, email)]);
    const reachable =
      links.some((link) => link === null || link === userId) || (userId !== undefined && (await repository.hasLinkedPurchase(db, userId)));
    if (reachable) {
      await codes.sendSignInCode(email);
      return;
    }
    const owner = links.find((link): link is string => link !== null);
    if (!owner) return;
    const providers = await repository.providersOf(db, owner);
    const redirect = providers.find((provider): provider is 'google' | 'apple' => provider === 'google' || provider === 'apple');
    await emails.enqueue(
      db,
      `access-help:${owner}:${normalizeEmail(email)}:${this.deps.clock.now().toISOString().slice(0, 13)}`,
      normalizeEmail(email),
      accessHelpEmail({ productName, signInWith: redirect ?? 'email', signInUrl }),
    );
    emails.kick();
  }

  /** Resolves when every access recovery answered so far has done its work (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.recoveries.size > 0) await Promise.allSettled([...this.recoveries]);
  }

  /** Deletes the user, their sessions, sign-in accounts, profile and every registered module's data. */
  async deleteMyData(user: SessionUser): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.db.transaction(async (tx) => {
      for (const eraser of this.deps.erasers) await eraser(tx, user);
      await this.deps.repository.deleteUser(tx, user.id, now);
    });
  }
}
