import { healthSchema, readinessSchema } from '@roots/contracts';
import pino from 'pino';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { GatewayConfig } from './config/env';

export type GatewayDependencies = {
  config: GatewayConfig;
  loggerInstance?: FastifyBaseLogger;
};

/** Never log what a shopper types into the secure fields, nor credentials. */
export const GATEWAY_LOG_REDACT_PATHS = ['req.headers.authorization', 'req.headers["x-api-key"]', '*.cardNumber', '*.cvv', '*.expiry'];

/** Builds the payment gateway sandbox app (its own origin); payment features arrive with their issue. */
export async function buildGatewayApp({ config, loggerInstance }: GatewayDependencies) {
  const app = Fastify({
    loggerInstance: loggerInstance ?? pino({ level: config.LOG_LEVEL, redact: GATEWAY_LOG_REDACT_PATHS }),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.get('/healthz', { schema: { response: { 200: healthSchema } } }, async () => ({ status: 'ok' as const }));
  app.get('/readyz', { schema: { response: { 200: readinessSchema } } }, async () => ({
    status: 'ok' as const,
    checks: { vault: 'ok' as const },
  }));
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send({ error: `Route ${request.method} ${request.url.split('?')[0]} not found`, code: 'NOT_FOUND' }),
  );
  return app;
}
