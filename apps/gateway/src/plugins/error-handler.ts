import type { GatewayError as GatewayErrorBody } from '@roots/contracts/gateway';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { codeForStatus, GatewayError } from '../errors';

/**
 * The one error handler: every failure answers `{ error, code, requestId }`. 4xx keep their
 * message; 5xx detail is logged, never sent. Validation messages name the path only, never the
 * value (a rejected body may hold card data).
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | GatewayError, request, reply) => {
    const requestId = String(request.id);
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = error.validation.map((issue) => ({
        path: issue.instancePath.replace(/^\//, '').replaceAll('/', '.'),
        message: issue.message ?? 'is invalid',
      }));
      const where = error.validationContext ?? 'request';
      const summary = details.map((d) => (d.path ? `${d.path}: ${d.message}` : d.message)).join('; ');
      return reply
        .status(400)
        .send({ error: `Invalid ${where}: ${summary}`, code: 'VALIDATION_ERROR', requestId, details } satisfies GatewayErrorBody);
    }
    if (error instanceof GatewayError) {
      if (error.statusCode >= 500) request.log.error({ err: error }, 'request failed');
      return reply.status(error.statusCode).send({ error: error.message, code: error.code, requestId } satisfies GatewayErrorBody);
    }
    const statusCode = typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 500;
    if (statusCode >= 500) {
      request.log.error({ err: { message: error.message, stack: error.stack } }, 'request failed');
      return reply.status(statusCode).send({ error: 'Something went wrong', code: 'INTERNAL_ERROR', requestId } satisfies GatewayErrorBody);
    }
    if (statusCode === 429) {
      return reply.status(429).send({ error: 'Too many requests', code: 'RATE_LIMITED', requestId } satisfies GatewayErrorBody);
    }
    // Framework 4xx (bad JSON, wrong content type): Node's JSON.parse message quotes the body, so never send it.
    const message =
      error instanceof SyntaxError || error.code?.startsWith('FST_ERR_CTP') ? safeFrameworkMessage(statusCode) : error.message;
    return reply.status(statusCode).send({ error: message, code: codeForStatus(statusCode), requestId } satisfies GatewayErrorBody);
  });
}

function safeFrameworkMessage(statusCode: number): string {
  switch (statusCode) {
    case 413:
      return 'Request body is too large';
    case 415:
      return 'Unsupported content type; send application/json';
    default:
      return 'Malformed request body';
  }
}
