import { randomUUID } from 'node:crypto';
import {
  type Report,
  type ReportFeedback,
  type ReportKind,
  type ReportRequester,
  type ReportFailure,
  type ReportResult,
  type ReportStatus,
  type ReportSummary,
} from '@roots/contracts/reports';
import { topEstimateOf } from '@roots/contracts/heritage-wording';
import { ANALYSIS_ERROR_MESSAGES, API_MESSAGES, MESSAGES } from '@roots/contracts';
import type { FaceBox } from '@roots/contracts/face-check';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database';
import { AppError } from '../../errors';
import type { Clock } from '../../lib/clock';
import type { Executor } from '../../db/executor';
import { normalizeEmail } from '../../lib/mask';
import { isOwner } from '../identity/ownership';
import { refusalError, type AdmittedPhoto, type AnalysisAdmission } from '../analysis/analysis-admission';
import type { SessionUser } from '../auth/session';
import {
  assertCanAccessReport,
  assertReportPurchase,
  canAccessReport,
  canUserReadReport,
  REPORT_NOT_FOUND_MESSAGE,
  verifyRequester,
  type PurchaseDirectory,
  type VerifiedRequester,
} from './report-access';
import { buildReportResult } from './report-content';
import type { ReportRow, ReportsRepository } from './reports.repository';

/** Most reports listed at once. */
export const MAX_LISTED_REPORTS = 100;

/**
 * Who reads reports: a purchase named with its email (the funnel), or the signed-in user, whose
 * session is the proof (ADR 075).
 */
export type ReportReader = { by: 'purchase'; requester: ReportRequester } | { by: 'session'; user: SessionUser };

/** What report/update asks: link the subscription's reports to the user, and maybe record feedback. */
export type ReportUpdate = { subscriptionId: string; email?: string | undefined; feedback?: ReportFeedback | undefined };

const verifiedEmailOf = (user: SessionUser): string | null => (user.emailVerified ? normalizeEmail(user.email) : null);

export type ReportsServiceOptions = {
  db: Db;
  repository: ReportsRepository;
  purchases: PurchaseDirectory;
  /** The process's one analysis queue (shared with the face check): screens the photo, then holds its place. */
  admission: AnalysisAdmission;
  clock: Clock;
  log: FastifyBaseLogger;
  /** A report still open this long after creation expires. */
  processingTimeoutMs: number;
};

/**
 * The report service (product-spec §7, ADR 060). `create` stores a pending report and answers at
 * once; the analysis runs in this process afterwards with the photo held only by that call. If the
 * process dies, the report stays open and {@link ReportsService.expireOverdue} expires it.
 */
export class ReportsService {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly options: ReportsServiceOptions) {}

  /**
   * Creates a pending report from a photo and starts its analysis; needs a live purchase with reports.
   * `face`: the face the customer chose in a group photo, the only one analysed (ADR 192).
   */
  async create(
    request: { email: string; subscriptionId: string; kind: ReportKind; face?: FaceBox | undefined },
    photo: Buffer,
    client: string,
  ): Promise<{ report_id: string; status: ReportStatus }> {
    const requester = await verifyRequester(this.options.purchases, { email: request.email, subscription_id: request.subscriptionId });
    return this.start(requester, { kind: request.kind, face: request.face }, photo, client);
  }

  /**
   * The signed-in app's report (ADR 145): made under `subscriptionId` when it is one of the user's
   * own purchases (ADR 071's rule), else under the user's newest purchase with live report access.
   * @throws AppError FORBIDDEN (403) 'No subscription data' when the user owns no such purchase.
   */
  async createForUser(
    user: SessionUser,
    request: { subscriptionId?: string | undefined; kind: ReportKind; face?: FaceBox | undefined },
    photo: Buffer,
    client: string,
  ): Promise<{ report_id: string; status: ReportStatus }> {
    const { purchases } = this.options;
    const subscription = request.subscriptionId
      ? await purchases.subscription(request.subscriptionId)
      : await purchases.newestWithReports(user);
    if (!subscription || !isOwner(user, subscription)) throw new AppError('FORBIDDEN', MESSAGES.noSubscriptionData);
    return this.start(
      { subscriptionId: subscription.id, email: subscription.email, userId: subscription.userId },
      { kind: request.kind, face: request.face },
      photo,
      client,
    );
  }

  /**
   * Stores a pending report under a verified purchase with report access and starts its analysis.
   * The photo is screened (format, declared size) and takes its client's place in the analysis
   * queue before anything is stored: a refused photo or a full queue leaves no report behind.
   */
  private async start(
    requester: VerifiedRequester,
    { kind, face }: { kind: ReportKind; face?: FaceBox | undefined },
    photo: Buffer,
    client: string,
  ): Promise<{ report_id: string; status: ReportStatus }> {
    const { db, repository, purchases, clock, admission } = this.options;
    await assertReportPurchase(purchases, requester);
    const admitted = admission.admit(photo, client);
    if ('refused' in admitted) throw refusalError(admitted);
    const now = clock.now();
    const id = randomUUID();
    await repository
      .insert(db, {
        id,
        subscriptionId: requester.subscriptionId,
        email: requester.email,
        userId: requester.userId,
        kind,
        status: 'pending',
        deadlineAt: new Date(now.getTime() + this.options.processingTimeoutMs),
        createdAt: now,
        updatedAt: now,
      })
      .catch((error: unknown) => {
        admitted.cancel();
        throw error;
      });
    // The photo lives in this closure only (and the queue's ticket); it is released when the analysis settles.
    const run = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.analyse(id, kind, admitted, face))
      .catch((error: unknown) => this.options.log.error({ err: error, reportId: id }, 'report analysis crashed'))
      .finally(() => {
        admitted.cancel(); // a no-op once the analysis ran; frees the place if it never got that far
        this.inFlight.delete(run);
      });
    this.inFlight.add(run);
    return { report_id: id, status: 'pending' };
  }

  private async analyse(id: string, kind: ReportKind, photo: AdmittedPhoto, face: FaceBox | undefined): Promise<void> {
    const { db, repository, clock, log } = this.options;
    if (!(await repository.apply(db, id, 'pending', 'claimed', {}, clock.now()))) {
      photo.cancel(); // expired meanwhile
      return;
    }
    const outcome = await photo.analyze(face);
    if (!outcome.ok) {
      if (outcome.code === 'INTERNAL') log.warn({ reportId: id, cause: outcome.cause }, 'report analysis failed');
      await repository.apply(
        db,
        id,
        'processing',
        'rejected',
        { errorCode: outcome.code, errorMessage: ANALYSIS_ERROR_MESSAGES[outcome.code] },
        clock.now(),
      );
      return;
    }
    await repository.apply(db, id, 'processing', 'analysed', { result: buildReportResult(outcome, kind) }, clock.now());
  }

  /**
   * Reports of the reader, newest first, without their content: made under the purchase, or the
   * signed-in user's own (of one subscription when `subscriptionId` is given; it must be theirs).
   */
  async list(reader: ReportReader, subscriptionId?: string): Promise<ReportSummary[]> {
    const rows = await this.readableRows(reader, subscriptionId);
    return rows.map((row) => {
      const { result, ...summary } = toWire(row);
      return { ...summary, top_estimate: result ? topEstimateOf(result) : null };
    });
  }

  async get(reader: ReportReader, reportId: string): Promise<Report> {
    return toWire(await this.readableRow(reader, reportId));
  }

  /** A completed report of the reader (the newest unless `reportId` names one), for the PDF. */
  async completed(reader: ReportReader, reportId?: string): Promise<Report & { result: ReportResult }> {
    const row = reportId ? await this.readableRow(reader, reportId) : await this.latestCompletedRow(reader);
    const report = toWire(row);
    if (report.status !== 'completed' || !report.result) throw new AppError('CONFLICT', API_MESSAGES.reportNotReady);
    return { ...report, result: report.result };
  }

  /**
   * report/update: links the subscription's reports to the signed-in user and, with `feedback`,
   * records the user's feedback on one of its reports. The user must own the purchase (ADR 071:
   * linked to them, or unlinked and bought with their verified email).
   */
  async update(user: SessionUser, update: ReportUpdate): Promise<{ updated: number; feedback_saved: boolean }> {
    const { db, repository, purchases, clock } = this.options;
    // A body that names the purchase's email must name the right one (the funnel's proof, ADR 060).
    const subscription = update.email
      ? await verifyRequester(purchases, { subscription_id: update.subscriptionId, email: update.email }).then((verified) => ({
          id: verified.subscriptionId,
          email: verified.email,
          userId: verified.userId,
        }))
      : await purchases.subscription(update.subscriptionId);
    if (!subscription || !isOwner(user, { userId: subscription.userId, email: subscription.email })) {
      throw new AppError('FORBIDDEN', API_MESSAGES.subscriptionOfAnotherUser);
    }
    return db.transaction(async (tx) => {
      const updated = await repository.linkUser(tx, subscription.id, user.id, clock.now());
      if (!update.feedback) return { updated, feedback_saved: false };
      const report = await repository.find(tx, update.feedback.report_id);
      if (!report || report.subscriptionId !== subscription.id || !canUserReadReport(user, report, subscription)) {
        throw new AppError('NOT_FOUND', REPORT_NOT_FOUND_MESSAGE);
      }
      await repository.saveFeedback(tx, report, update.feedback, clock.now());
      return { updated, feedback_saved: true };
    });
  }

  private async readableRows(reader: ReportReader, subscriptionId?: string): Promise<ReportRow[]> {
    const { db, repository, purchases } = this.options;
    if (reader.by === 'purchase') {
      const verified = await verifyRequester(purchases, reader.requester);
      const rows = await repository.bySubscription(db, verified.subscriptionId, MAX_LISTED_REPORTS);
      return rows.filter((row) => canAccessReport(row, verified));
    }
    const { user } = reader;
    if (subscriptionId) {
      const subscription = await purchases.subscription(subscriptionId);
      if (!subscription || !isOwner(user, { userId: subscription.userId, email: subscription.email })) {
        throw new AppError('NOT_FOUND', API_MESSAGES.notFound);
      }
    }
    return repository.ownedBy(db, { userId: user.id, verifiedEmail: verifiedEmailOf(user), subscriptionId }, MAX_LISTED_REPORTS);
  }

  /** @throws AppError NOT_FOUND (404) when the report does not exist or the reader may not read it. */
  private async readableRow(reader: ReportReader, reportId: string): Promise<ReportRow> {
    const { db, repository, purchases } = this.options;
    const row = await repository.find(db, reportId);
    if (reader.by === 'purchase') return assertCanAccessReport(row, await verifyRequester(purchases, reader.requester));
    const subscription = row && (await purchases.subscription(row.subscriptionId));
    if (!row || !canUserReadReport(reader.user, row, subscription)) throw new AppError('NOT_FOUND', REPORT_NOT_FOUND_MESSAGE);
    return row;
  }

  private async latestCompletedRow(reader: ReportReader): Promise<ReportRow> {
    const { db, repository, purchases } = this.options;
    if (reader.by === 'purchase') {
      const verified = await verifyRequester(purchases, reader.requester);
      return assertCanAccessReport(await repository.latestCompleted(db, verified.subscriptionId), verified);
    }
    const row = (await this.readableRows(reader)).find((candidate) => candidate.status === 'completed');
    if (!row) throw new AppError('NOT_FOUND', REPORT_NOT_FOUND_MESSAGE);
    return row;
  }

  /** 'Delete my data' (ADR 071): the user's reports go with the account. */
  readonly eraseUserData = async (tx: Executor, user: SessionUser): Promise<void> => {
    await this.options.repository.deleteOwnedBy(tx, user.id, user.emailVerified ? normalizeEmail(user.email) : null);
  };

  /**
   * The sweep: expires reports left pending or processing past their deadline, then compacts the
   * quality view's counts (ADR 199) so they stay about one row per day and key between reads.
   */
  async expireOverdue(): Promise<number> {
    const expired = await this.options.repository.expireOverdue(this.options.db, this.options.clock.now());
    if (expired.length > 0) this.options.log.warn({ count: expired.length }, 'expired stuck reports');
    await this.options.repository.compactQualityCounts(this.options.db);
    return expired.length;
  }

  /** Resolves when every analysis started so far has settled (shutdown, tests). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }
}

function toWire(row: ReportRow): Report {
  const status = row.status as ReportStatus;
  return {
    report_id: row.id,
    subscription_id: row.subscriptionId,
    userId: row.userId,
    kind: row.kind as ReportKind,
    status,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    // Stored results were validated against the contract when written (buildReportResult).
    result: status === 'completed' && row.result ? (row.result as ReportResult) : null,
    error:
      status === 'failed' && row.errorCode
        ? { code: row.errorCode as ReportFailure['code'], message: row.errorMessage ?? MESSAGES.somethingWentWrong }
        : null,
  };
}
