import { randomUUID } from 'node:crypto';
import {
  type Report,
  type ReportKind,
  type ReportRequester,
  type ReportFailure,
  type ReportResult,
  type ReportStatus,
} from '@roots/contracts/reports';
import { MESSAGES } from '@roots/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database';
import { AppError } from '../../errors';
import type { Clock } from '../../lib/clock';
import type { Executor } from '../../db/executor';
import { normalizeEmail } from '../../lib/mask';
import { isOwner } from '../account/ownership';
import type { AnalysisEngine } from '../analysis/analysis-engine';
import type { SessionUser } from '../auth/session';
import { assertCanAccessReport, assertReportPurchase, canAccessReport, verifyRequester, type PurchaseDirectory } from './report-access';
import { buildReportResult } from './report-content';
import type { ReportRow, ReportsRepository } from './reports.repository';

/** Most reports listed at once. */
export const MAX_LISTED_REPORTS = 100;

export type ReportsServiceOptions = {
  db: Db;
  repository: ReportsRepository;
  purchases: PurchaseDirectory;
  engine: AnalysisEngine;
  clock: Clock;
  log: FastifyBaseLogger;
  /** A report still open this long after creation expires. */
  processingTimeoutMs: number;
  /** Most analyses this process holds in memory at once (waiting or running); more answer 503. */
  maxInFlight: number;
};

/**
 * The report service (product-spec §7, ADR 060). `create` stores a pending report and answers at
 * once; the analysis runs in this process afterwards with the photo held only by that call. If the
 * process dies, the report stays open and {@link ReportsService.expireOverdue} expires it.
 */
export class ReportsService {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly options: ReportsServiceOptions) {}

  /** Creates a pending report from a photo and starts its analysis; needs a live purchase with reports. */
  async create(
    request: { email: string; subscriptionId: string; kind: ReportKind },
    photo: Buffer,
  ): Promise<{ report_id: string; status: ReportStatus }> {
    const { db, repository, purchases, clock } = this.options;
    const requester = await verifyRequester(purchases, { email: request.email, subscription_id: request.subscriptionId });
    await assertReportPurchase(purchases, requester);
    if (this.inFlight.size >= this.options.maxInFlight) throw new AppError('SERVICE_UNAVAILABLE', 503, MESSAGES.somethingWentWrong);
    const now = clock.now();
    const id = randomUUID();
    await repository.insert(db, {
      id,
      subscriptionId: requester.subscriptionId,
      email: requester.email,
      userId: requester.userId,
      kind: request.kind,
      status: 'pending',
      deadlineAt: new Date(now.getTime() + this.options.processingTimeoutMs),
      createdAt: now,
      updatedAt: now,
    });
    // The photo lives in this closure only; it is released when the analysis settles.
    const run = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.analyse(id, request.kind, photo))
      .catch((error: unknown) => this.options.log.error({ err: error, reportId: id }, 'report analysis crashed'))
      .finally(() => this.inFlight.delete(run));
    this.inFlight.add(run);
    return { report_id: id, status: 'pending' };
  }

  private async analyse(id: string, kind: ReportKind, photo: Buffer): Promise<void> {
    const { db, repository, engine, clock, log } = this.options;
    if (!(await repository.apply(db, id, 'pending', 'claimed', {}, clock.now()))) return; // expired meanwhile
    const outcome = await engine.analyze(photo);
    if (!outcome.ok) {
      if (outcome.code === 'INTERNAL') log.warn({ reportId: id, cause: outcome.cause }, 'report analysis failed');
      await repository.apply(db, id, 'processing', 'rejected', { errorCode: outcome.code, errorMessage: outcome.message }, clock.now());
      return;
    }
    await repository.apply(db, id, 'processing', 'analysed', { result: buildReportResult(outcome, kind) }, clock.now());
  }

  /** Reports of the requester's email, newest first, without their content. */
  async list(requester: ReportRequester): Promise<Array<Omit<Report, 'result'>>> {
    const { db, repository, purchases } = this.options;
    const verified = await verifyRequester(purchases, requester);
    const rows = await repository.byEmail(db, verified.email, MAX_LISTED_REPORTS);
    return rows
      .filter((row) => canAccessReport(row, verified))
      .map((row) => {
        const { result: _result, ...summary } = toWire(row);
        return summary;
      });
  }

  async get(requester: ReportRequester, reportId: string): Promise<Report> {
    const { db, repository, purchases } = this.options;
    const verified = await verifyRequester(purchases, requester);
    return toWire(assertCanAccessReport(await repository.find(db, reportId), verified));
  }

  /** A completed report of the requester (the newest unless `reportId` names one), for the PDF. */
  async completed(requester: ReportRequester, reportId?: string): Promise<Report & { result: ReportResult }> {
    const { db, repository, purchases } = this.options;
    const verified = await verifyRequester(purchases, requester);
    const row = reportId ? await repository.find(db, reportId) : await repository.latestCompleted(db, verified.email);
    const report = toWire(assertCanAccessReport(row, verified));
    if (report.status !== 'completed' || !report.result) throw new AppError('CONFLICT', 409, 'The report is not ready yet');
    return { ...report, result: report.result };
  }

  /**
   * Links the subscription's reports to the signed-in user (report/update). The user must own the
   * purchase (ADR 071: linked to them, or unlinked and bought with their verified email).
   */
  async linkUser(requester: ReportRequester, user: SessionUser): Promise<number> {
    const { db, repository, purchases, clock } = this.options;
    const verified = await verifyRequester(purchases, requester);
    if (!isOwner(user, { userId: verified.userId, email: verified.email })) {
      throw new AppError('FORBIDDEN', 403, 'The subscription belongs to another user');
    }
    return repository.linkUser(db, verified.subscriptionId, user.id, clock.now());
  }

  /** 'Delete my data' (ADR 071): the user's reports go with the account. */
  readonly eraseUserData = async (tx: Executor, user: SessionUser): Promise<void> => {
    await this.options.repository.deleteOwnedBy(tx, user.id, user.emailVerified ? normalizeEmail(user.email) : null);
  };

  /** Expires reports left pending or processing past their deadline (the sweep). */
  async expireOverdue(): Promise<number> {
    const expired = await this.options.repository.expireOverdue(this.options.db, this.options.clock.now());
    if (expired.length > 0) this.options.log.warn({ count: expired.length }, 'expired stuck reports');
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
