import { API_MESSAGES } from '@roots/contracts';
import {
  accessKindForPlan,
  coveredAccess,
  RENEWING_STATUSES,
  type AccessKind,
  type EntitlementsResponse,
} from '@roots/contracts/subscriptions';
import type { FastifyRequest } from 'fastify';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/database';
import type { Executor } from '../../db/executor';
import { accessGrants, subscriptions } from '../../db/schema';
import { AppError } from '../../errors';
import type { Clock } from '../../lib/clock';
import type { AccountRepository } from '../account/account.repository';
import type { PurchaseProof } from '../identity/purchase-proof';
import type { SessionReader, SessionUser } from '../auth/session';
import { agreedTermsOf, planTerms } from '../terms/plan-terms';
import type { PlanCatalog } from '@roots/contracts';

/** A live access grant: what one purchase gives its owner now. */
export type LiveGrant = { subscriptionId: string; planId: string; email: string; kind: AccessKind };

/**
 * What these purchases give now: their access grants neither revoked nor expired at `now`. The one
 * reading of ownership: the entitlements below, the subscription summaries (`access`) and the
 * rights to reports all ask it (issue 33).
 */
export async function liveGrantsOf(db: Executor, subscriptionIds: readonly string[], now: Date): Promise<LiveGrant[]> {
  if (subscriptionIds.length === 0) return [];
  const rows = await db
    .select({
      subscriptionId: accessGrants.subscriptionId,
      planId: subscriptions.planId,
      email: subscriptions.email,
      kind: accessGrants.kind,
      expiresAt: accessGrants.expiresAt,
    })
    .from(accessGrants)
    .innerJoin(subscriptions, eq(subscriptions.id, accessGrants.subscriptionId))
    .where(and(inArray(accessGrants.subscriptionId, [...subscriptionIds]), isNull(accessGrants.revokedAt)));
  return rows
    .filter((row) => !row.expiresAt || row.expiresAt > now)
    .map(({ subscriptionId, planId, email, kind }) => ({ subscriptionId, planId, email, kind: kind as AccessKind }));
}

/**
 * The one answer to "what does this customer own" (issue 23): the purchases this browser made (its
 * purchase cookie) and those of the signed-in account, with a live access grant; every access kind
 * they grant, with what those include (the Ultimate Pack includes reports and Profile Pro; Profile Pro
 * includes the report of its buyer's selfie, ADR 194). The checkout, the one-click offers and the
 * paywall ask it before anything is charged.
 */
export class Entitlements {
  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      catalog: PlanCatalog;
      proof: PurchaseProof;
      sessions: Pick<SessionReader, 'current'>;
      accounts: AccountRepository;
    },
  ) {}

  /**
   * What the request's browser and account own now. `signedIn`: the request's session user when the
   * caller has read it already (`null`: none), so the session is not read twice.
   */
  async of(request: FastifyRequest, signedIn?: SessionUser | null): Promise<EntitlementsResponse> {
    const live = await this.liveGrants(request, signedIn);
    return {
      plans: [...new Set(live.map((row) => row.planId))],
      access: [...coveredAccess(live.map((row) => row.kind))],
    };
  }

  /** The live grants of the purchases the request's browser and account prove, with their buyers' emails. */
  private async liveGrants(request: FastifyRequest, signedIn?: SessionUser | null) {
    const { db, clock, proof, sessions, accounts } = this.deps;
    const user = signedIn === undefined ? await sessions.current(request).catch(() => null) : signedIn;
    const ids = new Set(proof.heldSubscriptionIds(request));
    if (user) for (const row of await accounts.subscriptionsOf(db, user)) ids.add(row.id);
    return liveGrantsOf(db, [...ids], clock.now());
  }

  /**
   * The email of the purchase that already owns `planId` for this request (the same plan live, or a
   * one-time pack whose access is held or included); undefined when nothing owns it.
   */
  async ownerOf(request: FastifyRequest, planId: string, signedIn?: SessionUser | null): Promise<string | undefined> {
    const live = await this.liveGrants(request, signedIn);
    const samePlan = live.find((row) => row.planId === planId);
    if (samePlan) return samePlan.email;
    if (planTerms(this.deps.catalog, planId)?.recurring !== false) return undefined;
    const kind = accessKindForPlan(planId);
    return live.find((row) => coveredAccess([row.kind]).has(kind))?.email;
  }

  /**
   * The email of a live plan (ADR 196: no parent, a recurring plan that still renews) that this
   * request's browser or account proves, when `planId` is another recurring plan: a plan beside it
   * is not sold (the account changes the plan instead). Undefined otherwise.
   */
  async livePlanOwner(request: FastifyRequest, planId: string, signedIn?: SessionUser | null): Promise<string | undefined> {
    const { db, catalog, proof, sessions, accounts } = this.deps;
    if (planTerms(catalog, planId)?.recurring !== true) return undefined;
    const user = signedIn === undefined ? await sessions.current(request).catch(() => null) : signedIn;
    const ids = new Set(proof.heldSubscriptionIds(request));
    const rows = user ? await accounts.subscriptionsOf(db, user) : [];
    for (const row of rows) ids.add(row.id);
    if (ids.size === 0) return undefined;
    const proven = await db
      .select()
      .from(subscriptions)
      .where(
        and(inArray(subscriptions.id, [...ids]), isNull(subscriptions.parentId), inArray(subscriptions.status, [...RENEWING_STATUSES])),
      );
    return proven.find((row) => row.planId !== planId && agreedTermsOf(catalog, row)?.recurring === true)?.email;
  }

  /**
   * @throws AppError ALREADY_OWNED (409) when `planId` is owned: the same plan live (Back after
   * paying, a second tab), or a one-time pack whose access is already held or included.
   */
  async assertNotOwned(
    request: FastifyRequest,
    planId: string,
    signedIn?: SessionUser | null,
    message: string = API_MESSAGES.alreadyOwned,
  ): Promise<void> {
    if (await this.ownerOf(request, planId, signedIn)) throw new AppError('ALREADY_OWNED', message);
  }
}
