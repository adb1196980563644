import type { FastifyInstance } from 'fastify';
import { AccountRepository } from '../account/account.repository';
import type { AccountService } from '../account/account.service';
import type { SignInLimits } from '../../lib/sign-in-limits';
import type { SessionReader } from '../auth/session';
import type { CancellationService } from '../cancellation/cancellation.service';
import type { DisputeRecords } from '../disputes/dispute-records';
import type { BillingContext } from '../subscriptions/context';
import type { SubscriptionsService } from '../subscriptions/subscriptions.service';
import { AdminRepository } from './admin.repository';
import { adminRoutes, complianceRoutes, enforceGeoPolicy } from './admin.routes';
import { AdminService } from './admin.service';
import { recordCancellationChannels } from './cancellation-channels';
import { OperatorAccounts } from './operator-accounts';
import { DataExportService } from './data-export';
import type { SecondFactorLimit } from './second-factor-limit';

export type OperatorConsoleDependencies = {
  context: BillingContext;
  subscriptions: SubscriptionsService;
  cancellation: CancellationService;
  account: AccountService;
  sessions: SessionReader;
  limits: SignInLimits;
  secondFactorLimit: SecondFactorLimit;
  disputes: DisputeRecords;
};

/**
 * The operator console and the compliance controls (issue 13) on the app: the geo-policy gate and
 * the cancellation-channel recorder as app-wide hooks (so call this before the public routes), the
 * `/api/admin/*` routes, `/api/geo-policy` and the customer's data download.
 */
export async function registerOperatorConsole(
  app: FastifyInstance,
  deps: OperatorConsoleDependencies,
): Promise<{ admin: AdminService; accounts: OperatorAccounts }> {
  const repository = new AdminRepository();
  const { context } = deps;
  const admin = new AdminService({
    context,
    repository,
    subscriptions: deps.subscriptions,
    cancellation: deps.cancellation,
    account: deps.account,
    disputes: deps.disputes,
  });
  enforceGeoPolicy(app, context.config);
  recordCancellationChannels(app, { db: context.db, repository, clock: context.clock, appSecret: context.config.APP_SECRET });
  const exporter = new DataExportService({ db: context.db, accounts: new AccountRepository(), repository, clock: context.clock });
  const accounts = new OperatorAccounts({
    db: context.db,
    clock: context.clock,
    sealSecret: context.config.APP_SECRET,
    issuer: context.config.PRODUCT_NAME,
    secondFactorLimit: deps.secondFactorLimit,
  });
  await app.register(adminRoutes, { admin, accounts, sessions: deps.sessions, limits: deps.limits, context });
  await app.register(complianceRoutes, { config: context.config, sessions: deps.sessions, exporter });
  return { admin, accounts };
}
