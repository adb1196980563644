import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import pino, { type LoggerOptions } from 'pino';
import { formatMessage, API_MESSAGES } from '@roots/contracts';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { APP_VERSION } from '@roots/contracts';
import type { Config } from './config/env';
import type { Database } from './db/database';
import { healthRoutes } from './modules/health/health.routes';
import { planRoutes } from './modules/plans/plans.routes';
import { buildPublicConfig } from './modules/public-config/public-config';
import { publicConfigRoutes } from './modules/public-config/public-config.routes';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import { systemClock, type Clock } from './lib/clock';
import { EmailRateLimiter } from './lib/email-rate-limit';
import { SharedRateLimitCounters, sharedRateLimitStore } from './lib/shared-rate-limit';
import { SignInLimits } from './lib/sign-in-limits';
import { createRegistry, metricsAccess, registerObservability, requestIdFrom } from '@roots/observability';
import { registerOpenApi } from '@roots/server-kit';
import { registerBusinessMetrics } from './modules/metrics/business-metrics';
import { maskEmail } from './lib/mask';
import { AccountRepository } from './modules/account/account.repository';
import { accountRoutes } from './modules/account/account.routes';
import { planChangeRoutes } from './modules/plan-change/plan-change.routes';
import { PlanChangeService } from './modules/plan-change/plan-change.service';
import { AccountService } from './modules/account/account.service';
import { PurchaseProof } from './modules/identity/purchase-proof';
import { assertPlanOffered } from './modules/admin/geo-policy';
import { Entitlements } from './modules/entitlements/entitlements';
import { configuredProviders, createAuth } from './modules/auth/auth';
import { authRoutes } from './modules/auth/auth.routes';
import { SessionReader } from './modules/auth/session';
import { BillingService } from './modules/billing/billing.service';
import { cardUpdateRoutes } from './modules/billing/card-update.routes';
import { CardUpdateService } from './modules/billing/card-update.service';
import { ChargesRepository } from './modules/charges/charges.repository';
import { ChargesService } from './modules/charges/charges.service';
import { PaymentFailures } from './modules/payment-failures/payment-failures';
import { PaymentSweep } from './modules/payment-sweep/payment-sweep.service';
import { PaymentSweepRepository } from './modules/payment-sweep/payment-sweep.repository';
import { CancellationRepository } from './modules/cancellation/cancellation.repository';
import { cancellationRoutes } from './modules/cancellation/cancellation.routes';
import { CancellationService } from './modules/cancellation/cancellation.service';
import { EmailsRepository } from './modules/emails/emails.repository';
import { devMailboxRoutes } from './modules/emails/emails.routes';
import { EmailsService } from './modules/emails/emails.service';
import { createMailer } from './modules/emails/mailer';
import { EventsRepository } from './modules/events/events.repository';
import { eventsRoutes } from './modules/events/events.routes';
import { faceCheckRoutes } from './modules/face-check/face-check.routes';
import { GatewayClient } from './modules/gateway/gateway-client';
import { DisputeGuard } from './modules/disputes/dispute-guard';
import { DisputeRecords } from './modules/disputes/dispute-records';
import { gatewayWebhookRoutes } from './modules/gateway-webhooks/gateway-webhooks.routes';
import { insightsRoutes } from './modules/insights/insights.routes';
import type { BillingContext } from './modules/subscriptions/context';
import { LifecycleRepository } from './modules/lifecycle/lifecycle.repository';
import { SubscriptionLifecycle } from './modules/lifecycle/subscription-lifecycle';
import { SubscriptionsRepository } from './modules/subscriptions/subscriptions.repository';
import { subscriptionRoutes } from './modules/subscriptions/subscriptions.routes';
import { SubscriptionsService } from './modules/subscriptions/subscriptions.service';
import { AddOnsService } from './modules/purchases/add-ons.service';
import { CheckoutSessions } from './modules/purchases/checkout-session.service';
import { purchaseRoutes } from './modules/purchases/purchases.routes';
import { PurchasesService } from './modules/purchases/purchases.service';
import { OnePlan } from './modules/purchases/one-plan';
import { createReporting, reportingRoutes } from './modules/reports/reporting';
import { registerOperatorConsole } from './modules/admin/operator-console';
import { secondFactorOnIdentityEndpoints } from './modules/admin/operator-guard';
import { SecondFactorLimit, secondFactorMetrics } from './modules/admin/second-factor-limit';
import { registerErrorHandler } from './plugins/error-handler';
import { cspReportRoutes } from './plugins/csp-report';
import { registerOriginCheck } from './plugins/csrf';
import { CSP_REPORT_PATH, registerSecurityHeaders } from './plugins/security-headers';
import { registerErrorResponses } from './plugins/error-responses';
import { registerSpa } from './plugins/spa';
import { maskEmailsDeep, registerTextGuard } from './plugins/text-guard';
import { MerchantApiBudget } from './plugins/merchant-api-budget';

/** Where the product serves its OpenAPI document (README "HTTP surface"; ADR 113). */
export const OPENAPI_PATH = '/api/openapi.json';

export type AppDependencies = {
  config: Config;
  database: Database;
  /** A pino logger to use; when absent the app makes its own from LOG_LEVEL. */
  loggerInstance?: FastifyBaseLogger;
  /** Where time comes from (tests move it); default the system clock. */
  clock?: Clock;
};

/** Log fields that must never be written in clear (architecture: no emails, tokens, card data, images). */
export const LOG_REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  '*.email',
  '*.image',
  '*.password',
  '*.token',
  '*.card',
];

/**
 * Request URLs as logged: emails in paths (`/rec/subscriptions/{email}`,
 * `/api/send-activation-by-email/{code}/{email}`) are masked, and one-click cancel tokens,
 * update-card link tokens (the page `/{slug}/update-card/…` and its API) and activation codes are
 * dropped.
 */
export function redactUrl(url: string | undefined): string | undefined {
  return url
    ?.replace(/(\/api\/cancel-subscription\/)[^/?]+/, '$1[redacted]')
    .replace(/(\/update-card\/)[^/?]+/, '$1[redacted]')
    .replace(/(\/api\/send-activation-by-email\/)[^/?]+/, '$1[redacted]')
    .replace(/[^/?&=]+(?:@|%40)[^/?&]+/gi, (email) => maskEmail(decodeURIComponent(email)));
}

/** pino options of the server: redaction paths, and request URLs without emails or tokens. */
export function serverLoggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: LOG_REDACT_PATHS,
    serializers: {
      req: (request: { method?: string; url?: string; id?: string }) => ({
        method: request.method,
        url: redactUrl(request.url),
        id: request.id,
      }),
      // Errors carry what they were given (a failed query's parameters): emails in them are masked.
      err: (error: Error) => maskEmailsDeep(pino.stdSerializers.err(error)),
    },
  };
}

function trustProxySetting(value: string): boolean | string[] {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return value.split(',').map((address) => address.trim());
}

/** Default location of the built web app, relative to this package (source or bundle). */
function defaultWebDist(): string {
  return resolve(fileURLToPath(new URL('.', import.meta.url)), '../../web/dist');
}

/** Builds the Fastify app without listening; tests call `inject()` on it. */
export async function buildApp({ config, database, loggerInstance, clock = systemClock }: AppDependencies) {
  const app = Fastify({
    loggerInstance: loggerInstance ?? pino(serverLoggerOptions(config.LOG_LEVEL)),
    trustProxy: trustProxySetting(config.TRUST_PROXY),
    bodyLimit: 1_048_576,
    genReqId: requestIdFrom,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  const routes = registerErrorResponses(app);
  // Request metrics and ids first, so every route below is measured (ADR 118).
  const metricsRegistry = createRegistry('server');
  registerObservability(app, {
    registry: metricsRegistry,
    service: 'server',
    access: metricsAccess(config.METRICS_TOKEN, config.NODE_ENV),
  });
  registerBusinessMetrics(metricsRegistry, database.db, clock);
  await app.register(cookie);
  registerSecurityHeaders(app, {
    gatewayOrigin: new URL(config.GATEWAY_URL).origin,
    signInOrigins: [config.AUTH_GOOGLE_ISSUER, config.AUTH_APPLE_ISSUER].flatMap((issuer) => (issuer ? [new URL(issuer).origin] : [])),
    frameAncestors: config.CSP_FRAME_ANCESTORS,
    apiOrigins: [
      ...new Set([config.SUBSCRIPTION_API_URL, config.SUBSCRIPTION_API_STAGING_URL].flatMap((url) => (url ? [new URL(url).origin] : []))),
    ],
  });
  registerTextGuard(app);
  registerOriginCheck(app, {
    allowedOrigins: [config.publicUrl, ...config.AUTH_TRUSTED_ORIGINS],
    exemptPathPrefixes: ['/api/auth/callback/', '/api/auth/oauth2/callback/', CSP_REPORT_PATH],
  });

  await registerOpenApi(app, {
    path: OPENAPI_PATH,
    title: `${config.PRODUCT_NAME} product API`,
    version: APP_VERSION,
    description:
      'The product server: plans, checkout and subscriptions, cancellation, events, reports and insights, the signed-in account. Errors answer { error, code }.',
    // The API, not the SPA's pages and assets, the dev mailbox or better-auth's catch-all.
    includes: (url) => !url.includes('*') && url !== '/' && !url.startsWith(`/${config.PRODUCT_SLUG}`) && !url.startsWith('/dev/'),
  });
  const publicConfig = buildPublicConfig(config);
  // Read at request time: the analysis queue is made with the report service below.
  await app.register(healthRoutes, { database, analysisSaturated: () => reporting.admission.stats().saturated });
  await app.register(planRoutes, { catalog: config.catalog });
  await app.register(publicConfigRoutes, { publicConfig });

  const emailsRepository = new EmailsRepository();
  const mailer = createMailer(config.SMTP_URL, (mail) => emailsRepository.deliverToDevMailbox(database.db, mail, clock.now()));
  const emails = new EmailsService(database.db, emailsRepository, mailer, clock, config.MAIL_FROM, app.log, config.APP_SECRET, {
    name: config.LEGAL_OPERATOR_NAME,
    address: config.LEGAL_OPERATOR_ADDRESS ?? null,
    support: config.LEGAL_CONTACT_EMAIL,
  });
  const gateway = new GatewayClient({
    baseUrl: config.GATEWAY_URL.replace(/\/$/, ''),
    merchantKey: config.GATEWAY_MERCHANT_SECRET,
    timeoutMs: config.GATEWAY_TIMEOUT_MS,
  });
  const context: BillingContext = {
    db: database.db,
    repository: new SubscriptionsRepository(),
    lifecycle: new SubscriptionLifecycle({ repository: new LifecycleRepository(), emails, clock, config }),
    charges: new ChargesService({ db: database.db, repository: new ChargesRepository(), gateway, clock, config, log: app.log }),
    gateway,
    emails,
    clock,
    config,
    log: app.log,
  };
  // One customer, one plan (ADR 196): the purchase lock and the refunds of duplicates.
  const onePlan = new OnePlan(context);
  const purchases = new PurchasesService(context, onePlan);
  const addOns = new AddOnsService(context);
  const subscriptions = new SubscriptionsService(context, (intent) => purchases.settleIntent(intent));
  const paymentFailures = new PaymentFailures({ clock, catalog: config.catalog });
  const sweep = new PaymentSweep({ context, purchases, repository: new PaymentSweepRepository(), failures: paymentFailures });
  const billing = new BillingService(context, subscriptions, purchases, sweep, onePlan);
  // Disputes (ADR 181-182): recorded by one rule, and no refund of a disputed payment.
  const disputeRecords = new DisputeRecords({ context, failures: paymentFailures });
  const disputeGuard = new DisputeGuard({ db: database.db, gateway, records: disputeRecords, log: app.log });
  const cancellation = new CancellationService(context, new CancellationRepository(), subscriptions, disputeGuard);
  onePlan.useRefunds({
    payment: (executionId) => sweep.refundNow(executionId),
    // A duplicate purchase made: its first charge back in full, which ends it (the refund email says so).
    purchase: async (row) => {
      const first = (await context.charges.chargesOf(row.id)).find((charge) => charge.kind === 'first' && charge.status === 'succeeded');
      return first ? (await cancellation.refundCharge(first, undefined, 'a second live plan of one customer')).refundedMinor : 0;
    },
  });
  const cardUpdate = new CardUpdateService(context);
  // Limits shared by every instance through the database (ADR 116).
  const rateLimitCounters = new SharedRateLimitCounters(database.db, clock);
  const emailLimiter = new EmailRateLimiter(config.EMAIL_RATE_LIMIT_PER_HOUR, 3_600_000, rateLimitCounters);
  const signInLimits = new SignInLimits(
    {
      emailsPerIp: config.SIGN_IN_CODES_PER_IP_PER_HOUR,
      guessesPerIp: config.SIGN_IN_GUESSES_PER_IP_PER_HOUR,
      guessesPerEmailPerMinute: config.SIGN_IN_GUESSES_PER_EMAIL_PER_MINUTE,
      resendSeconds: config.SIGN_IN_CODE_RESEND_SECONDS,
      resendsPerDay: config.SIGN_IN_CODE_RESENDS_PER_DAY,
      secret: config.AUTH_SECRET,
    },
    rateLimitCounters,
  );
  const trustProxy = config.TRUST_PROXY !== 'false';
  const reporting = createReporting({ config, db: database.db, clock, log: app.log, registry: metricsRegistry });
  const auth = createAuth({ config, db: database.db, emails, log: app.log, limits: signInLimits });
  const sessions = new SessionReader(auth);
  const proof = new PurchaseProof(
    { secret: config.APP_SECRET, slug: config.PRODUCT_SLUG, secure: config.publicUrl.startsWith('https:') },
    sessions,
  );
  const accounts = new AccountRepository();
  const entitlements = new Entitlements({ db: database.db, clock, catalog: config.catalog, proof, sessions, accounts });
  const planChange = new PlanChangeService({ context, accounts });
  const account = new AccountService({
    db: database.db,
    repository: accounts,
    subscriptions,
    planChanges: planChange,
    cancellation,
    clock,
    erasers: [reporting.service.eraseUserData, paymentFailures.eraseUserData],
    emails,
    productName: config.PRODUCT_NAME,
    signInUrl: `${config.publicUrl}/${config.PRODUCT_SLUG}/sign-in`,
    log: app.log,
  });

  // Operator console and compliance controls (issue 13): app-wide hooks first, then its routes.
  const { admin, accounts: operatorAccounts } = await registerOperatorConsole(app, {
    context,
    subscriptions,
    cancellation,
    account,
    sessions,
    limits: signInLimits,
    secondFactorLimit: new SecondFactorLimit({
      counters: rateLimitCounters,
      maxFailures: config.OPERATOR_TOTP_MAX_FAILURES,
      lockMinutes: config.OPERATOR_TOTP_LOCK_MINUTES,
      metrics: secondFactorMetrics(metricsRegistry),
    }),
    disputes: disputeRecords,
  });

  // The gateway's merchant quota as public requests spend it, once valid and proven (ADR 160).
  const budget = new MerchantApiBudget({
    counters: rateLimitCounters,
    clock,
    secret: config.APP_SECRET,
    secureCookies: config.publicUrl.startsWith('https:'),
    settings: {
      perClientCheckouts: config.GATEWAY_CLIENT_BUDGET_PER_MINUTE,
      openCheckouts: config.GATEWAY_SESSION_BUDGET_PER_MINUTE,
      reserveCheckouts: config.GATEWAY_CHECKOUT_RESERVE_PER_MINUTE,
      perClientExecutionReads: config.GATEWAY_CLIENT_PURCHASE_BUDGET_PER_MINUTE,
    },
  });
  // The public API: rate-limited per IP (and per email inside the routes that take one).
  await app.register(async (api) => {
    await api.register(rateLimit, {
      global: true,
      max: config.RATE_LIMIT_PER_MINUTE,
      timeWindow: 60_000,
      store: sharedRateLimitStore(rateLimitCounters),
      errorResponseBuilder: (_request, context) => ({
        statusCode: 429,
        code: 'RATE_LIMITED',
        error: 'Too Many Requests',
        message: formatMessage(API_MESSAGES.tooManyRequests, { after: context.after }),
      }),
    });
    await api.register(purchaseRoutes, {
      checkout: new CheckoutSessions(context),
      purchases,
      addOns,
      emailLimiter,
      sessions,
      proof,
      entitlements,
      budget,
      assertPlanOffered: (request, planId) => assertPlanOffered(config, request, planId),
    });
    await api.register(subscriptionRoutes, {
      service: subscriptions,
      emailLimiter,
      sessions,
      proof,
      budget,
      settleClaim: async (user, claimed) => onePlan.settleAtClaim(await accounts.subscriptionsOf(database.db, user), claimed),
    });
    await api.register(authRoutes, {
      auth,
      publicUrl: config.publicUrl,
      limits: signInLimits,
      guardSession: secondFactorOnIdentityEndpoints({ sessions, accounts: operatorAccounts }),
    });
    await api.register(accountRoutes, { service: account, sessions, providers: configuredProviders(config), limits: signInLimits, budget });
    await api.register(planChangeRoutes, { service: planChange, sessions });
    await api.register(reportingRoutes, { reporting, emailLimiter, sessions, proof, subscriptions });
    await api.register(faceCheckRoutes, { admission: reporting.admission, ratePerMinute: config.FACE_CHECK_RATE_LIMIT_PER_MINUTE });
    await api.register(insightsRoutes);
    await api.register(cancellationRoutes, { service: cancellation, emailLimiter, slug: config.PRODUCT_SLUG, proof, budget });
    await api.register(cardUpdateRoutes, { service: cardUpdate, sessions, budget });
    await api.register(cspReportRoutes);
    await api.register(eventsRoutes, {
      db: database.db,
      repository: new EventsRepository(),
      clock,
      countryHeader: config.COUNTRY_HEADER,
      trustProxy,
    });
  });
  // Server to server: signed by the gateway, outside the per-IP limit of the public API.
  await app.register(gatewayWebhookRoutes, {
    secret: config.gatewayWebhookSecret,
    purchases,
    clock,
    records: { db: database.db, failures: paymentFailures, disputes: disputeRecords },
  });
  if (config.NODE_ENV !== 'production') await app.register(devMailboxRoutes, { emails });
  app.addHook('onClose', async () => {
    await account.idle();
    await emails.idle();
    mailer.close();
  });
  await registerSpa(app, {
    slug: config.PRODUCT_SLUG,
    productName: config.PRODUCT_NAME,
    distDir: config.WEB_DIST_DIR ?? defaultWebDist(),
    publicConfig,
  });
  return Object.assign(app, {
    roots: {
      routes,
      subscriptions,
      purchases,
      billing,
      sweep,
      cancellation,
      cardUpdate,
      charges: context.charges,
      emails,
      clock,
      auth,
      sessions,
      account,
      proof,
      admin,
      operatorAccounts,
    },
  });
}

export type RootsApp = Awaited<ReturnType<typeof buildApp>>;
