import { nulInRequest } from '@roots/contracts/text';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatewayError } from '../errors';

/**
 * Refuses a NUL byte anywhere in a request's params, query or JSON body with 400 before the route
 * validates it: PostgreSQL refuses NUL in text, which answered 500 (found by the API fuzz test).
 */
export function registerTextGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request: FastifyRequest) => {
    const refused = nulInRequest(request);
    if (refused !== undefined) throw new GatewayError('VALIDATION_ERROR', refused);
  });
}
