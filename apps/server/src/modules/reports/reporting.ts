import { availableParallelism } from 'node:os';
import { MESSAGES } from '@roots/contracts';
import type { Registry } from '@roots/observability';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config/env';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import type { EmailRateLimiter } from '../../lib/email-rate-limit';
import { normalizeEmail } from '../../lib/mask';
import { AppError } from '../../errors';
import type { PurchaseProof } from '../identity/purchase-proof';
import type { SessionReader } from '../auth/session';
import { createAnalysisAdmission, type AnalysisAdmission } from '../analysis/analysis-admission';
import { lazyAnalysisEngine, type AnalysisEngine } from '../analysis/analysis-engine';
import { remoteAnalysisEngine } from '../analysis/remote-analysis-engine';
import { AccountRepository } from '../account/account.repository';
import { liveGrantsOf } from '../entitlements/entitlements';
import { SubscriptionsRepository, type SubscriptionRow } from '../subscriptions/subscriptions.repository';
import type { SubscriptionsService } from '../subscriptions/subscriptions.service';
import { REPORT_ACCESS_KINDS, type PurchaseDirectory, type PurchaseRecord } from './report-access';
import { ReportsRepository } from './reports.repository';
import { reportRoutes } from './reports.routes';
import { ReportsService } from './reports.service';

export type Reporting = { service: ReportsService; engine: AnalysisEngine; admission: AnalysisAdmission; config: Config };

/**
 * The report service wired to the purchases it may read (rights as the entitlements read them), and the process's one
 * analysis engine (started on first use) behind its one bounded, fair queue (ADR 165; the face check shares both).
 */
export function createReporting(deps: { config: Config; db: Db; clock: Clock; log: FastifyBaseLogger; registry: Registry }): Reporting {
  const { config, db, clock, log, registry } = deps;
  // ANALYSIS_URLS: photos go to analyzer services (ADR 115); otherwise a worker pool in this process.
  const engine = config.ANALYSIS_URLS
    ? remoteAnalysisEngine({
        urls: config.ANALYSIS_URLS,
        timeoutMs: config.ANALYSIS_TIMEOUT_MS,
        deadlineMs: config.ANALYSIS_DEADLINE_MS,
        secret: config.ANALYZER_SECRET,
        log,
      })
    : lazyAnalysisEngine(config.ANALYSIS_WORKERS);
  const admission = createAnalysisAdmission(
    engine,
    {
      // As many photos run as there are workers (or as may be sent to the analyzers); the rest wait in turn.
      concurrency: config.ANALYSIS_URLS ? config.ANALYSIS_MAX_IN_FLIGHT : (config.ANALYSIS_WORKERS ?? availableParallelism()),
      maxWaiting: config.ANALYSIS_QUEUE_SIZE,
      perClient: config.ANALYSIS_QUEUE_PER_CLIENT,
    },
    registry,
  );
  const subscriptionRows = new SubscriptionsRepository();
  const accountRows = new AccountRepository();
  const recordOf = (row: SubscriptionRow): PurchaseRecord => ({ id: row.id, email: normalizeEmail(row.email), userId: row.userId });
  // What a purchase and its add-ons give now, read as the entitlements read it (one answer, issue 33).
  const accessOf = async (subscriptionId: string) => {
    const family = await subscriptionRows.family(db, subscriptionId);
    const grants = await liveGrantsOf(
      db,
      family.map((row) => row.id),
      clock.now(),
    );
    return grants.map((grant) => grant.kind);
  };
  const purchases: PurchaseDirectory = {
    async subscription(id) {
      const row = await subscriptionRows.find(db, id);
      return row && recordOf(row);
    },
    accessOf,
    async newestWithReports(user) {
      // subscriptionsOf answers oldest first; a customer holds a handful, each asked in turn from the newest.
      const owned = await accountRows.subscriptionsOf(db, user);
      for (const row of [...owned].reverse()) {
        if ((await accessOf(row.id)).some((kind) => REPORT_ACCESS_KINDS.includes(kind))) return recordOf(row);
      }
      return undefined;
    },
  };
  const service = new ReportsService({
    db,
    repository: new ReportsRepository(),
    purchases,
    admission,
    clock,
    log,
    processingTimeoutMs: config.REPORT_PROCESSING_TIMEOUT_MS,
  });
  return { service, engine, admission, config };
}

/**
 * Routes of the report service, plus the expiry sweep
 * (runs while the app is ready) and shutdown (analyses finish, then the pool closes).
 */
export const reportingRoutes: FastifyPluginAsyncZod<{
  reporting: Reporting;
  emailLimiter: EmailRateLimiter;
  sessions: SessionReader;
  proof: PurchaseProof;
  subscriptions: SubscriptionsService;
}> = async (app, { reporting, emailLimiter, sessions, proof, subscriptions }) => {
  const { service, engine, config } = reporting;
  /** A purchase named in a request body is usable only by its buyer's browser or signed-in owner (ADR 085). */
  const assertPurchaseProof = async (request: FastifyRequest, subscriptionId: string) => {
    if (!(await proof.owns(request, await subscriptions.find(subscriptionId))))
      throw new AppError('FORBIDDEN', MESSAGES.noSubscriptionData);
  };
  await app.register(reportRoutes, { service, emailLimiter, sessions, assertPurchaseProof, productName: config.PRODUCT_NAME });

  let sweep: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    sweep = setInterval(() => {
      service.expireOverdue().catch((error: unknown) => app.log.error({ err: error }, 'report expiry sweep failed'));
    }, config.REPORT_SWEEP_INTERVAL_MS);
    sweep.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(sweep);
    await service.idle();
    await engine.close();
  });
};
