import type { FastifyRequest } from 'fastify';
import type { SessionReader } from '../auth/session';
import type { AdminService } from './admin.service';

/**
 * The gate of every `/api/admin/*` endpoint: a visitor gets 401 'user-token-expired' (as every
 * signed-in endpoint), a signed-in customer 403. Returns the operator.
 */
export async function requireOperator(request: FastifyRequest, sessions: SessionReader, admin: AdminService): Promise<{ email: string }> {
  const user = await sessions.require(request);
  return admin.requireOperator(user);
}
