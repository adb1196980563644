import { API_MESSAGES } from '@roots/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors';
import type { Clock } from '../lib/clock';

/** Routes that open a gateway session, each one call against the merchant's shared gateway quota. */
export const GATEWAY_SESSION_ROUTES = new Set(['/init/session']);

/**
 * The product-wide budget of anonymous gateway sessions (issue 17): `/init/session` needs no
 * account, so callers from many IPs, each under the per-IP limit, drained the gateway's one
 * per-merchant quota and every checkout then got 503. Past `perMinute` in a fixed window, this
 * process answers 429 itself, so the rest of the quota stays for purchases, renewals and refunds.
 * Per process, like the per-IP limit: N instances spend up to N × the budget.
 */
export function registerGatewaySessionBudget(app: FastifyInstance, options: { perMinute: number; clock: Clock }): void {
  let windowStartMs = 0;
  let spent = 0;
  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (!GATEWAY_SESSION_ROUTES.has(request.routeOptions.url ?? '')) return;
    const nowMs = options.clock.now().getTime();
    if (nowMs - windowStartMs >= 60_000) {
      windowStartMs = nowMs;
      spent = 0;
    }
    spent += 1;
    if (spent > options.perMinute) {
      throw new AppError('RATE_LIMITED', API_MESSAGES.tooManyCheckouts);
    }
  });
}
