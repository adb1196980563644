import { MESSAGES, type ApiError } from '@roots/contracts';
import type { FastifyError, FastifyInstance, FastifySchemaValidationError } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, codeForStatus } from '../errors';
import { ChallengeRequired } from './merchant-api-budget';

/** Where and why a request failed its schema, as `ApiError.details` lists it. */
export function validationDetails(validation: readonly FastifySchemaValidationError[]): Array<{ path: string; message: string }> {
  return validation.map((issue) => ({
    path: issue.instancePath.replace(/^\//, '').replaceAll('/', '.'),
    message: issue.message ?? 'is invalid',
  }));
}

/**
 * The one error handler: every failure answers `{ error, code }`. 4xx keep their message;
 * 5xx detail is logged, never sent.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = validationDetails(error.validation);
      const where = error.validationContext ?? 'request';
      const summary = details.map((d) => (d.path ? `${d.path}: ${d.message}` : d.message)).join('; ');
      return reply.status(400).send({ error: `Invalid ${where}: ${summary}`, code: 'VALIDATION_ERROR', details } satisfies ApiError);
    }
    if (error instanceof AppError) {
      if (error.retryAfterSeconds !== undefined) void reply.header('retry-after', String(error.retryAfterSeconds));
      if (error.statusCode >= 500 && error.retryAfterSeconds === undefined) request.log.error({ err: error }, 'request failed');
      // The one error answer with more than `{ error, code }`: the challenge to solve (ADR 160).
      if (error instanceof ChallengeRequired)
        return reply
          .status(error.statusCode)
          .send({ ...({ error: error.message, code: error.code } satisfies ApiError), challenge: error.challenge });
      return reply.status(error.statusCode).send({ error: error.message, code: error.code } satisfies ApiError);
    }
    const statusCode = typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 500;
    if (statusCode >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(statusCode).send({ error: MESSAGES.somethingWentWrong, code: codeForStatus(statusCode) } satisfies ApiError);
    }
    return reply.status(statusCode).send({ error: error.message, code: codeForStatus(statusCode) } satisfies ApiError);
  });
}
