import { availableParallelism } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config/env';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import type { EmailRateLimiter } from '../../lib/email-rate-limit';
import { normalizeEmail } from '../../lib/mask';
import type { SessionReader } from '../auth/session';
import { lazyAnalysisEngine, type AnalysisEngine } from '../analysis/analysis-engine';
import { SubscriptionsRepository } from '../subscriptions/subscriptions.repository';
import type { SubscriptionsService } from '../subscriptions/subscriptions.service';
import type { PurchaseDirectory } from './report-access';
import { ReportsRepository } from './reports.repository';
import { reportRoutes } from './reports.routes';
import { ReportsService } from './reports.service';

/** Analyses held in memory per analysis worker before report/create answers 503. */
const IN_FLIGHT_PER_WORKER = 16;

export type Reporting = { service: ReportsService; engine: AnalysisEngine; config: Config };

/**
 * The report service wired to the subscription service for purchases, and the process's one
 * analysis engine (started on first use; the face check shares it).
 */
export function createReporting(deps: {
  config: Config;
  db: Db;
  subscriptions: SubscriptionsService;
  clock: Clock;
  log: FastifyBaseLogger;
}): Reporting {
  const { config, db, subscriptions, clock, log } = deps;
  const engine = lazyAnalysisEngine(config.ANALYSIS_WORKERS);
  const subscriptionRows = new SubscriptionsRepository();
  const purchases: PurchaseDirectory = {
    async subscription(id) {
      const row = await subscriptionRows.find(db, id);
      return row && { id: row.id, email: normalizeEmail(row.email), userId: row.userId };
    },
    async accessOf(email) {
      const summaries = await subscriptions.recover(email);
      return summaries.flatMap((summary) => summary.access);
    },
  };
  const service = new ReportsService({
    db,
    repository: new ReportsRepository(),
    purchases,
    engine,
    clock,
    log,
    processingTimeoutMs: config.REPORT_PROCESSING_TIMEOUT_MS,
    maxInFlight: (config.ANALYSIS_WORKERS ?? availableParallelism()) * IN_FLIGHT_PER_WORKER,
  });
  return { service, engine, config };
}

/**
 * Routes of the report service, plus the expiry sweep
 * (runs while the app is ready) and shutdown (analyses finish, then the pool closes).
 */
export const reportingRoutes: FastifyPluginAsyncZod<{
  reporting: Reporting;
  emailLimiter: EmailRateLimiter;
  sessions: SessionReader;
}> = async (app, { reporting, emailLimiter, sessions }) => {
  const { service, engine, config } = reporting;
  await app.register(reportRoutes, { service, emailLimiter, sessions, productName: config.PRODUCT_NAME });

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
