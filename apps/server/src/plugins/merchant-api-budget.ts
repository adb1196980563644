import { API_MESSAGES, formatMessage } from '@roots/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors';
import type { SharedRateLimitCounters } from '../lib/shared-rate-limit';

/** Which share of the gateway's merchant quota a public route draws from. */
export type MerchantApiShare = 'checkout' | 'purchase';

/**
 * Every public route that reaches the gateway's merchant API (server to server, one quota per
 * merchant), by share: opening and keeping a checkout (a card update's too), or completing a
 * purchase, an add-on charge, a card update or a cancel with its refund. A route added here is budgeted; a route that starts calling the
 * gateway must be added.
 */
export const MERCHANT_API_ROUTES: Readonly<Record<string, MerchantApiShare>> = {
  'GET /init/session': 'checkout',
  'POST /init/session': 'checkout',
  'POST /init/session/token': 'checkout',
  'POST /api/apple-pay/validate-merchant': 'checkout',
  'POST /subs/create-no-user': 'purchase',
  'POST /subs/create-no-user-applepay': 'purchase',
  'POST /subs/create': 'purchase',
  'POST /subs/create-applepay': 'purchase',
  // The pending page's "check again" reads the payment back (issue 24).
  'POST /subs/payment-status': 'purchase',
  'POST /api/cancel': 'purchase',
  'POST /api/cancel-request': 'purchase',
  'POST /api/cancel-subscription/:content': 'purchase',
  'POST /api/account/subscriptions/:id/cancel': 'purchase',
  // A new card for a subscription (ADR 143): its checkout, then reading the verification back.
  'POST /api/account/subscriptions/:id/update-card': 'checkout',
  'POST /api/update-card/:content': 'checkout',
  'POST /api/account/subscriptions/:id/update-card/complete': 'purchase',
  'POST /api/update-card/:content/complete': 'purchase',
};

export type MerchantApiBudgetSettings = {
  /** Calls one client address may make per minute, over both shares. */
  perClient: number;
  /** Calls per minute of every client together, per share; what is left of the gateway quota is the server's own reserve. */
  perShare: Record<MerchantApiShare, number>;
};

const MINUTE_MS = 60_000;

/**
 * The budget of the gateway's merchant quota (issue 22), per client first and global second, in
 * the shared `rate_limit_hits` table so N instances spend one budget (ADR 116):
 * - a client past its own budget is refused before it touches the global one, so a flood from a
 *   few addresses spends at most `perClient` each and never starves other shoppers;
 * - shoppers together spend at most the two shares (checkout, purchase), so whatever flood there
 *   is, the rest of the gateway quota stays for the server's own renewals, sweeps and refunds.
 * The client address is the server's rule (`request.ip`, TRUST_PROXY).
 */
export function registerMerchantApiBudget(
  app: FastifyInstance,
  options: { settings: MerchantApiBudgetSettings; counters: SharedRateLimitCounters },
): void {
  const { settings, counters } = options;
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const share = MERCHANT_API_ROUTES[`${request.method} ${request.routeOptions.url ?? ''}`];
    if (!share) return;
    const client = await counters.hit(`merchant:client:${request.ip}`, MINUTE_MS);
    if (client.hits > settings.perClient) {
      const seconds = Math.max(1, Math.ceil(client.resetInMs / 1000));
      throw new AppError('RATE_LIMITED', formatMessage(API_MESSAGES.tooManyRequests, { after: `${seconds} seconds` }));
    }
    const global = await counters.hit(`merchant:share:${share}`, MINUTE_MS);
    if (global.hits > settings.perShare[share]) throw new AppError('RATE_LIMITED', API_MESSAGES.tooManyCheckouts);
  });
}
