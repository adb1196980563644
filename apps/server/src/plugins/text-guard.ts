import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors';
import { maskEmail } from '../lib/mask';
import { nulInRequest } from '@roots/contracts/text';

/** Deeper nesting than any of our schemas has; past it a value is not walked for emails. */
const MAX_DEPTH = 32;

/**
 * Refuses a NUL byte anywhere in a request's params, query or JSON body with 400 before the route
 * validates it (issue 17: it reached the database and answered 500, logging the email in clear).
 */
export function registerTextGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request: FastifyRequest) => {
    const refused = nulInRequest(request);
    if (refused !== undefined) throw new AppError('VALIDATION_ERROR', refused);
  });
}

const EMAIL_IN_TEXT = /[^\s"'<>(),;:[\]\\/]+@[^\s"'<>(),;:[\]\\/]+\.[a-z]{2,}/gi;

/** A value as it may be logged: every email in any string, at any depth, masked. */
export function maskEmailsDeep(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.replace(EMAIL_IN_TEXT, (email) => maskEmail(email));
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((item) => maskEmailsDeep(item, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, maskEmailsDeep(item, depth + 1)]));
}
