import { API_MESSAGES, MESSAGES } from '@roots/contracts';
import type { ReportRequester } from '@roots/contracts/reports';
import { FACE_ANALYSIS_ACCESS_KINDS, type AccessKind } from '@roots/contracts/subscriptions';
import { AppError } from '../../errors';
import { normalizeEmail } from '../../lib/mask';
import { isOwner } from '../identity/ownership';
import type { SessionUser } from '../auth/session';
import type { ReportRow } from './reports.repository';

/** Purchases that include heritage reports (product-spec §6); `profile_pro` alone does not. */
export const REPORT_ACCESS_KINDS: readonly AccessKind[] = FACE_ANALYSIS_ACCESS_KINDS;

/** A purchase as the report service sees it: its email (normalised) and linked user, if any. */
export type PurchaseRecord = { id: string; email: string; userId: string | null };

/** What the report service needs to know about purchases (the subscription service answers). */
export type PurchaseDirectory = {
  /** The subscription with that id. */
  subscription(id: string): Promise<PurchaseRecord | undefined>;
  /**
   * The access kinds a purchase holds now (live grants only), with its one-click add-ons: a report is
   * made under a purchase that includes reports, never because another purchase of the same email
   * does (issue 22: an email is a claim).
   */
  accessOf(subscriptionId: string): Promise<AccessKind[]>;
  /**
   * The user's newest purchase (ADR 071's ownership rule) whose access, with its add-ons', holds
   * live reports: where the signed-in app's report is made when it names none (ADR 145).
   */
  newestWithReports(user: SessionUser): Promise<PurchaseRecord | undefined>;
};

/** A requester whose purchase was looked up: the subscription exists and belongs to the email. */
export type VerifiedRequester = { subscriptionId: string; email: string; userId: string | null };

export const REPORT_NOT_FOUND_MESSAGE = API_MESSAGES.reportNotFound;

/**
 * Checks that the requester names a real purchase of its own email. Until sign-in lands (ADR 033)
 * knowing a subscription id together with its email is the proof of ownership.
 * @throws AppError FORBIDDEN (403) 'No subscription data' otherwise.
 */
export async function verifyRequester(purchases: PurchaseDirectory, requester: ReportRequester): Promise<VerifiedRequester> {
  const email = normalizeEmail(requester.email);
  const subscription = await purchases.subscription(requester.subscription_id);
  if (!subscription || subscription.email !== email) throw new AppError('FORBIDDEN', MESSAGES.noSubscriptionData);
  return { subscriptionId: subscription.id, email, userId: subscription.userId };
}

/**
 * Who may read (get, list, PDF) a report when asking with a purchase (the funnel, whose browser
 * holds the purchase's proof): a report made under that very purchase, unless it is linked to
 * another user. Never by email (issue 22): a purchase naming someone's email must not open the
 * reports of their other purchases, nor their account's.
 */
export function canAccessReport(report: Pick<ReportRow, 'subscriptionId' | 'userId'>, requester: VerifiedRequester): boolean {
  if (report.userId !== null && requester.userId !== null && report.userId !== requester.userId) return false;
  return report.subscriptionId === requester.subscriptionId;
}

/**
 * @throws AppError NOT_FOUND (404) when the report does not exist or is not the requester's (the
 * two look the same, so report ids cannot be probed).
 */
export function assertCanAccessReport<T extends Pick<ReportRow, 'subscriptionId' | 'userId'>>(
  report: T | undefined,
  requester: VerifiedRequester,
): T {
  if (!report || !canAccessReport(report, requester)) throw new AppError('NOT_FOUND', REPORT_NOT_FOUND_MESSAGE);
  return report;
}

/** @throws AppError FORBIDDEN (403) unless the requester's purchase (or an add-on of it) holds live report access. */
export async function assertReportPurchase(purchases: PurchaseDirectory, requester: VerifiedRequester): Promise<void> {
  const access = await purchases.accessOf(requester.subscriptionId);
  if (!access.some((kind) => REPORT_ACCESS_KINDS.includes(kind))) throw new AppError('FORBIDDEN', MESSAGES.noSubscriptionData);
}

/**
 * Who may read a report when asking with a session (the signed-in area, ADR 075): the owner of
 * the report by ADR 071's rule (linked to the user, or unlinked and of their verified email), or,
 * while the report is unlinked, the owner of the subscription it was made under (a purchase
 * finalized by a user who signed in with another email). `repository.ownedBy` is the same rule in SQL.
 */
export function canUserReadReport(
  user: SessionUser,
  report: Pick<ReportRow, 'email' | 'userId'>,
  subscription: { userId: string | null } | undefined,
): boolean {
  if (isOwner(user, report)) return true;
  return report.userId === null && subscription?.userId === user.id;
}
