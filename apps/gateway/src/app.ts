import { randomUUID } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import { APP_VERSION, healthSchema, readinessSchema } from '@roots/contracts';
import { GATEWAY_HEADERS, PIX_TIMEOUT_MS } from '@roots/contracts/gateway';
import pino, { type LoggerOptions } from 'pino';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { GatewayConfig } from './config/env';
import { openDatabase, type Database } from './db/database';
import { countriesRoutes } from './modules/countries/countries.routes';
import { DisputesRepository } from './modules/disputes/disputes.repository';
import { DisputesService } from './modules/disputes/disputes.service';
import { ExecutionsRepository } from './modules/executions/executions.repository';
import { ExecutionsService } from './modules/executions/executions.service';
import { IdempotencyRepository } from './modules/idempotency/idempotency.repository';
import { Idempotency, registerIdempotency } from './modules/idempotency/idempotency';
import { merchantRoutes } from './modules/merchant/merchant.routes';
import { homeRoutes } from './modules/pages/home.routes';
import { PageTokens } from './modules/page-token/page-token';
import { pagesRoutes } from './modules/pages/pages.routes';
import { adyenNotificationRoutes } from './modules/executions/adyen-notifications';
import { createProcessor } from './modules/processors/processors';
import { providerSandboxRoutes } from './modules/provider-sandbox/provider-sandbox.routes';
import { secureFieldsRoutes } from './modules/secure-fields/secure-fields.routes';
import { BearerTokens } from './modules/sessions/bearer-token';
import { clientRoutes } from './modules/checkout/client.routes';
import { SessionsRepository } from './modules/sessions/sessions.repository';
import { SessionsService } from './modules/checkout/sessions.service';
import { CardCipher } from './modules/vault/card-cipher';
import { VaultRepository } from './modules/vault/vault.repository';
import { VaultRecordsRepository, VaultRecordsService } from './modules/vault/vault-records';
import { vaultRoutes } from './modules/vault/vault.routes';
import { VaultService } from './modules/vault/vault.service';
import { WalletsService } from './modules/wallets/wallets.service';
import { registerWebhookMetrics } from './modules/webhooks/webhook-metrics';
import { WebhooksRepository } from './modules/webhooks/webhooks.repository';
import { WebhooksService } from './modules/webhooks/webhooks.service';
import { authenticators, rateLimitKey } from './plugins/auth';
import { registerCors } from './plugins/cors';
import { registerErrorHandler } from './plugins/error-handler';
import { createRegistry, metricsAccess, registerObservability } from '@roots/observability';
import { registerOpenApi } from '@roots/server-kit';
import { registerFrameAncestors } from './plugins/frame-ancestors';
import { registerTextGuard } from './plugins/text-guard';

/** Where the gateway serves its OpenAPI document (apps/gateway/README.md; ADR 113). */
export const OPENAPI_PATH = '/openapi.json';

export type GatewayDependencies = {
  config: GatewayConfig;
  /** An open, migrated database; when absent the app opens (and later closes) its own from the config. */
  database?: Database;
  loggerInstance?: FastifyBaseLogger;
};

/** Never log what a shopper types into the secure fields, nor credentials. */
export const GATEWAY_LOG_REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  '*.cardNumber',
  '*.cvv',
  '*.expiry',
  '*.expiryMonth',
  '*.expiryYear',
  '*.bearerToken',
];

/** pino options of the gateway: redaction, and request URLs without page capability tokens. */
export function gatewayLoggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: GATEWAY_LOG_REDACT_PATHS,
    serializers: {
      req: (request: { method?: string; url?: string; id?: string }) => ({
        method: request.method,
        url: request.url?.replace(/([?&]t=)[^&]*/, '$1[redacted]'),
        id: request.id,
      }),
    },
  };
}

const REQUEST_ID_PATTERN = /^[\w.:-]{1,128}$/;

/** Builds the payment gateway sandbox app (its own origin). Listening is server.ts's job. */
export async function buildGatewayApp({ config, database: given, loggerInstance }: GatewayDependencies) {
  const app = Fastify({
    loggerInstance: loggerInstance ?? pino(gatewayLoggerOptions(config.LOG_LEVEL)),
    bodyLimit: 65_536,
    // An incoming x-request-id (well-formed) is kept so callers can correlate; otherwise a fresh one.
    genReqId: (request) => {
      const incoming = request.headers[GATEWAY_HEADERS.requestId];
      return typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerTextGuard(app);
  // Request rate and latency per route and status at GET /metrics (ADR 118).
  const registry = createRegistry('gateway');
  registerObservability(app, {
    registry,
    service: 'gateway',
    access: metricsAccess(config.METRICS_TOKEN, config.NODE_ENV),
  });
  await registerOpenApi(app, {
    path: OPENAPI_PATH,
    title: 'Roots payment gateway (sandbox)',
    version: APP_VERSION,
    description:
      'The SDK API (/v1, bearer token), the vault (/vault) and the merchant API (/merchant/v1, x-api-key). Errors answer { error, code }.',
    includes: (url) =>
      ['/v1/', '/vault/', '/merchant/v1/', '/healthz', '/readyz', '/assets/countries.json'].some((prefix) => url.startsWith(prefix)),
  });
  app.addHook('onRequest', async (request, reply) => {
    reply.header(GATEWAY_HEADERS.requestId, request.id);
  });

  const database = given ?? (await openDatabase({ url: config.GATEWAY_DATABASE_URL, dataDir: config.GATEWAY_DATA_DIR }));
  if (!given) await database.migrate();

  registerWebhookMetrics(registry, database.db);
  const publicUrl = () => config.publicUrl;
  const cipher = new CardCipher(config.GATEWAY_VAULT_KEY);
  const tokens = new BearerTokens(config.GATEWAY_JWT_SECRET, publicUrl);
  // A page link lives as long as a checkout session, and never less than what its page waits for.
  const pageLinkTtlMs = Math.max(config.GATEWAY_SESSION_TTL_SECONDS * 1_000, config.GATEWAY_CHALLENGE_TTL_SECONDS * 1_000, PIX_TIMEOUT_MS);
  const pageTokens = new PageTokens(config.GATEWAY_JWT_SECRET, pageLinkTtlMs);
  const webhooks = new WebhooksService(
    new WebhooksRepository(database.db),
    {
      urls: config.GATEWAY_WEBHOOK_URLS,
      secret: config.GATEWAY_WEBHOOK_SECRET,
      maxAttempts: config.GATEWAY_WEBHOOK_MAX_ATTEMPTS,
      retryBaseMs: config.GATEWAY_WEBHOOK_RETRY_BASE_MS,
      timeoutMs: config.GATEWAY_WEBHOOK_TIMEOUT_MS,
    },
    app.log,
  );
  const executionsRepository = new ExecutionsRepository(database.db);
  const sessionsRepository = new SessionsRepository(database.db);
  const vault = new VaultService(new VaultRepository(database.db), cipher);
  const sessions = new SessionsService(sessionsRepository, executionsRepository, tokens, {
    publicUrl,
    ttlSeconds: config.GATEWAY_SESSION_TTL_SECONDS,
    merchantName: config.GATEWAY_MERCHANT_NAME,
  });
  // Card payments go to the configured processor (ADR 173): the sandbox by default, or Adyen.
  const processor = createProcessor(config.processor, {
    log: app.log,
    slowAuthPolls: config.GATEWAY_SLOW_AUTH_POLLS,
    // Adyen's shopperReference must not be personal data: a keyed hash of our holder reference.
    shopperReference: (holderReference) => `roots-${cipher.keyedHash(`shopper:${holderReference}`).slice(0, 32)}`,
  });
  // Disputes move under their execution's lock and announce themselves with its view (ADR 181).
  const disputes = new DisputesService(
    new DisputesRepository(database.db),
    {
      view: (id) => executions.viewById(id),
      locked: (id, work) => executions.locked(id, work),
    },
    webhooks,
  );
  const executions = new ExecutionsService(executionsRepository, sessionsRepository, vault, webhooks, pageTokens, {
    publicUrl,
    slowAuthPolls: config.GATEWAY_SLOW_AUTH_POLLS,
    challengeTtlMs: config.GATEWAY_CHALLENGE_TTL_SECONDS * 1_000,
    otpSecret: config.GATEWAY_JWT_SECRET,
    walletSecret: config.GATEWAY_JWT_SECRET,
    processor,
    log: app.log,
    hashKey: (value) => cipher.keyedHash(value),
  });
  // A processor's decision on a dispute moves it through the same state machine and webhook (ADR 181).
  executions.decideDisputesWith((disputeId, decision) => disputes.decideHeld(disputeId, decision));
  const wallets = new WalletsService(config.GATEWAY_MERCHANT_NAME, config.GATEWAY_JWT_SECRET);
  const records = new VaultRecordsService(new VaultRecordsRepository(database.db), cipher);
  const idempotency = new Idempotency(new IdempotencyRepository(database.db), (value) => cipher.keyedHash(value));
  const auth = authenticators(tokens, config.GATEWAY_MERCHANT_SECRET);

  registerFrameAncestors(app, config.merchantOrigins);
  registerCors(app, { gatewayOrigin: () => new URL(config.publicUrl).origin, merchantOrigins: config.merchantOrigins });
  await app.register(rateLimit, {
    global: true,
    max: config.GATEWAY_RATE_LIMIT_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: rateLimitKey,
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      code: 'RATE_LIMITED',
      message: `Too many requests, retry in ${context.after}`,
    }),
  });
  const requireIdempotencyKey = registerIdempotency(app, idempotency);

  app.get('/healthz', { schema: { response: { 200: healthSchema } } }, async () => ({ status: 'ok' as const }));
  app.get('/readyz', { schema: { response: { 200: readinessSchema, 503: readinessSchema } } }, async (_request, reply) => {
    const ok = await database.ping().then(
      () => true,
      () => false,
    );
    return reply.status(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable', checks: { vault: ok ? 'ok' : 'failed' } });
  });
  await app.register(countriesRoutes);
  await app.register(clientRoutes, {
    prefix: '/v1',
    authenticate: auth.client,
    requireIdempotencyKey,
    executions,
    vault,
    sessions,
    wallets,
    merchantOrigins: config.merchantOrigins,
  });
  await app.register(vaultRoutes, { prefix: '/vault', authenticate: auth.client, requireIdempotencyKey, vault, records });
  await app.register(merchantRoutes, {
    prefix: '/merchant/v1',
    authenticate: auth.merchant,
    requireIdempotencyKey,
    sessions,
    executions,
    disputes,
    vault,
    wallets,
    records,
  });
  await app.register(pagesRoutes, {
    executions,
    pageTokens,
    merchantName: config.GATEWAY_MERCHANT_NAME,
    merchantOrigins: config.merchantOrigins,
  });
  await app.register(homeRoutes, { production: config.NODE_ENV === 'production' });
  // Stand-ins of the Google-type wallet and PayPal scripts and their sheet / approval pages.
  await app.register(providerSandboxRoutes, {
    executions,
    merchantName: config.GATEWAY_MERCHANT_NAME,
    merchantOrigins: config.merchantOrigins,
    walletSecret: config.GATEWAY_JWT_SECRET,
  });
  // A real processor's notifications (ADR 173): Adyen posts here, signed with its HMAC keys.
  if (config.processor.name === 'adyen') {
    await app.register(adyenNotificationRoutes, {
      executions,
      repository: executionsRepository,
      hmacKeys: config.processor.hmacKeys,
      merchantAccount: config.processor.merchantAccount,
      live: config.processor.environment === 'live',
      log: app.log,
    });
  }
  // The secure-field frames (packages/secure-fields): the only page that posts card data, to /vault on this origin.
  await app.register(secureFieldsRoutes, { frameAncestors: config.merchantOrigins });
  app.setNotFoundHandler((request, reply) =>
    reply
      .status(404)
      .send({ error: `Route ${request.method} ${request.url.split('?')[0]} not found`, code: 'NOT_FOUND', requestId: String(request.id) }),
  );

  webhooks.start();
  app.addHook('onClose', async () => {
    await webhooks.stop();
    if (!given) await database.close();
  });
  return Object.assign(app, { gateway: { database, webhooks, config, records, disputes } });
}

export type GatewayApp = Awaited<ReturnType<typeof buildGatewayApp>>;
