import type { CancelChannel } from '@roots/contracts/admin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { normalizeEmail } from '../../lib/mask';
import { readCancelLink } from '../links/cancel-link';
import type { AdminRepository } from './admin.repository';

/** Reason recorded for a customer's own cancel: the flows ask for none, only whether to refund. */
export const CUSTOMER_REASON = { refund: 'refund requested', none: 'not asked' } as const;

type Matched = { channel: CancelChannel; reason: string; match: { ids?: string[]; email?: string } };

/**
 * Which channel a successful request of the cancel routes is (email code, one-click link, account,
 * by id), and which subscriptions it may have canceled; undefined for every other request.
 */
export function cancelChannelOf(request: FastifyRequest, appSecret: string): Matched | undefined {
  const route = `${request.method} ${request.routeOptions.url ?? ''}`;
  const body = (request.body ?? {}) as { email?: unknown; code?: unknown; id?: unknown; refund?: unknown };
  const params = (request.params ?? {}) as { id?: string; content?: string };
  const query = (request.query ?? {}) as { refund?: string };
  switch (route) {
    case 'POST /api/cancel-request':
      if (typeof body.code !== 'string' || typeof body.email !== 'string') return undefined;
      return { channel: 'email_code', reason: CUSTOMER_REASON.none, match: { email: normalizeEmail(body.email) } };
    case 'POST /api/cancel':
      if (typeof body.id !== 'string') return undefined;
      return { channel: 'by_id', reason: body.refund === true ? CUSTOMER_REASON.refund : CUSTOMER_REASON.none, match: { ids: [body.id] } };
    case 'GET /api/cancel-subscription/:content':
    case 'POST /api/cancel-subscription/:content': {
      const id = params.content ? readCancelLink(appSecret, params.content)?.subscriptionId : undefined;
      if (!id) return undefined;
      return {
        channel: 'one_click_link',
        reason: query.refund === 'true' ? CUSTOMER_REASON.refund : CUSTOMER_REASON.none,
        match: { ids: [id] },
      };
    }
    case 'POST /api/account/subscriptions/:id/cancel':
      return params.id
        ? { channel: 'account', reason: body.refund === true ? CUSTOMER_REASON.refund : CUSTOMER_REASON.none, match: { ids: [params.id] } }
        : undefined;
    default:
      return undefined;
  }
}

/**
 * Records the channel of every customer cancellation beside the subscription (the revenue view's
 * "cancellations by reason and channel") without touching the cancellation module: after a
 * successful cancel request, the subscriptions it canceled since the request began get a row,
 * before the answer leaves (so whoever reads the channels after the answer finds them).
 */
export function recordCancellationChannels(
  app: FastifyInstance,
  options: { db: Db; repository: AdminRepository; clock: Clock; appSecret: string },
): void {
  const started = new WeakMap<FastifyRequest, Date>();
  app.addHook('onRequest', async (request) => {
    if (request.url.includes('cancel')) started.set(request, options.clock.now());
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const since = started.get(request);
    if (!since || reply.statusCode >= 400) return payload;
    const matched = cancelChannelOf(request, options.appSecret);
    if (!matched) return payload;
    try {
      const ids = await options.repository.canceledSince(options.db, since, matched.match);
      const now = options.clock.now();
      for (const subscriptionId of ids)
        await options.repository.recordCancellation(options.db, { subscriptionId, channel: matched.channel, reason: matched.reason, now });
    } catch (error) {
      request.log.warn({ err: error }, 'cancellation channel not recorded');
    }
    return payload;
  });
}
