import { API_MESSAGES } from '@roots/contracts';
import { accessKindForPlan, coveredAccess, type AccessKind, type EntitlementsResponse } from '@roots/contracts/subscriptions';
import type { FastifyRequest } from 'fastify';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { accessGrants, subscriptions } from '../../db/schema';
import { AppError } from '../../errors';
import type { Clock } from '../../lib/clock';
import type { AccountRepository } from '../account/account.repository';
import type { PurchaseProof } from '../account/purchase-proof';
import type { SessionReader, SessionUser } from '../auth/session';
import { planTerms } from '../billing/plan-terms';
import type { PlanCatalog } from '@roots/contracts';

/**
 * The one answer to "what does this customer own" (issue 23): the purchases this browser made (its
 * purchase cookie) and those of the signed-in account, with a live access grant; every access kind
 * they grant, with what those include (the Ultimate Pack includes reports and Profile Pro). The
 * checkout, the one-click offers and the paywall ask it before anything is charged.
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
    const { db, clock, proof, sessions, accounts } = this.deps;
    const user = signedIn === undefined ? await sessions.current(request).catch(() => null) : signedIn;
    const ids = new Set(proof.heldSubscriptionIds(request));
    if (user) for (const row of await accounts.subscriptionsOf(db, user)) ids.add(row.id);
    if (ids.size === 0) return { plans: [], access: [] };
    const now = clock.now();
    const rows = await db
      .select({ planId: subscriptions.planId, kind: accessGrants.kind, expiresAt: accessGrants.expiresAt })
      .from(accessGrants)
      .innerJoin(subscriptions, eq(subscriptions.id, accessGrants.subscriptionId))
      .where(and(inArray(accessGrants.subscriptionId, [...ids]), isNull(accessGrants.revokedAt)));
    const live = rows.filter((row) => !row.expiresAt || row.expiresAt > now);
    return {
      plans: [...new Set(live.map((row) => row.planId))],
      access: [...coveredAccess(live.map((row) => row.kind as AccessKind))],
    };
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
    const owned = await this.of(request, signedIn);
    if (owned.plans.length === 0) return;
    const oneTime = planTerms(this.deps.catalog, planId)?.recurring === false;
    if (owned.plans.includes(planId) || (oneTime && owned.access.includes(accessKindForPlan(planId)))) {
      throw new AppError('ALREADY_OWNED', message);
    }
  }
}
