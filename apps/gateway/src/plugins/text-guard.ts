import { findNul } from '@roots/contracts/text';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatewayError } from '../errors';

/**
 * Refuses a NUL byte anywhere in a request's params, query or JSON body with 400 before the route
 * validates it: PostgreSQL refuses NUL in text, which answered 500 (found by the API fuzz test).
 */
export function registerTextGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request: FastifyRequest) => {
    for (const [part, value] of [
      ['params', request.params],
      ['querystring', request.query],
      ['body', request.body],
    ] as const) {
      const path = findNul(value);
      if (path !== undefined) throw new GatewayError('VALIDATION_ERROR', `Invalid ${part}: ${path}: must not contain a NUL character`);
    }
  });
}
