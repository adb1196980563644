import { OPERATOR_REFUSALS, type OperatorPermission } from '@roots/contracts/admin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../errors';
import type { SessionReader } from '../auth/session';
import type { OperatorAccounts, OperatorCaller } from './operator-accounts';

/**
 * What an operator endpoint asks of its caller: a permission of the role table (ROLE_PERMISSIONS),
 * `operator` (any operator who passed the second factor), or `second-factor` (any operator, before
 * the second factor too: the steps that lead to it).
 */
export type EndpointAccess = OperatorPermission | 'operator' | 'second-factor';

const callers = new WeakMap<FastifyRequest, OperatorCaller>();

/**
 * The one gate of every `/api/admin/*` endpoint (ADR 150), before the body is even read: a visitor
 * gets 401 'user-token-expired' (as every signed-in endpoint), a customer 403 'Operators only', an
 * operator without the second factor 403 'operator-second-factor-enrollment-required' or
 * 'operator-second-factor-required', and one whose role lacks the endpoint's permission 403
 * 'operator-role-forbidden'. An endpoint missing from `access` is refused to everyone.
 */
export function guardOperatorEndpoints(
  app: FastifyInstance,
  { sessions, accounts, access }: { sessions: SessionReader; accounts: OperatorAccounts; access: Readonly<Record<string, EndpointAccess>> },
): void {
  app.addHook('onRequest', async (request) => {
    const user = await sessions.require(request);
    const caller = await accounts.caller(user);
    const needed = access[`${request.method} ${request.routeOptions.url ?? ''}`];
    if (needed === undefined) throw new AppError('FORBIDDEN', OPERATOR_REFUSALS.roleForbidden);
    if (needed !== 'second-factor') accounts.authorize(caller, needed === 'operator' ? null : needed);
    callers.set(request, caller);
  });
}

/** The operator the gate let through for this request. */
export function operatorOf(request: FastifyRequest): OperatorCaller {
  const caller = callers.get(request);
  if (!caller) throw new AppError('FORBIDDEN', OPERATOR_REFUSALS.notOperator);
  return caller;
}

/**
 * The second factor on the identity library's own endpoints beyond signing in (`/api/auth/list-sessions`,
 * `/revoke-session`, `/revoke-sessions`, `/update-user`, `/list-accounts`, …; ADR 169): an operator's
 * session that has not passed the second factor is refused there as on `/api/admin/*` (403
 * 'operator-second-factor-required' / '…-enrollment-required'). Customers and visitors pass.
 */
export function secondFactorOnIdentityEndpoints({
  sessions,
  accounts,
}: {
  sessions: SessionReader;
  accounts: OperatorAccounts;
}): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    const user = await sessions.current(request);
    if (!user) return;
    const caller = await accounts.callerIfOperator(user);
    if (caller) accounts.authorize(caller, null);
  };
}
