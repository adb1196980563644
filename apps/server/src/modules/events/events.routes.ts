import {
  attributionSchema,
  compactAttribution,
  eventAcceptedSchema,
  eventRequestSchema,
  remoteAddrResponseSchema,
  TRACKED_PURCHASE_EVENT,
  visitSchema,
  type Visit,
} from '@roots/contracts/events';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { countryOf } from './geo';
import type { EventsRepository } from './events.repository';
import { ERROR_RESPONSES } from '../../plugins/error-responses';

type EventsRoutesOptions = { db: Db; repository: EventsRepository; clock: Clock; countryHeader: string | undefined; trustProxy: boolean };

/** Largest text body of `POST /subscriptions/{id}`. */
const MAX_TRACKING_TEXT = 10_000;

/** The visit's keys beside the attribution values of a funnel row (the console counts visits by them: docs/metrics.md). */
function visitKeys(visit: Visit | undefined): Record<string, string> {
  return visit ? { visit_id: visit.id, visit_variant: visit.variant } : {};
}

/**
 * The attribution values and visit a tracked purchase's text body carries (the page's attribution
 * record as JSON, with `visit` beside it); nothing for a body that is not such JSON.
 */
function attributionOfBody(body: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return {};
  }
  const attribution = attributionSchema.safeParse(parsed);
  const visit = visitSchema.safeParse((parsed as { visit?: unknown } | null)?.visit);
  return {
    ...(attribution.success ? (compactAttribution(attribution.data) as Record<string, string>) : {}),
    ...visitKeys(visit.success ? visit.data : undefined),
  };
}

/** `POST /event`, `GET /remote-addr`, `POST /subscriptions/{id}` (product-spec §7). */
export const eventsRoutes: FastifyPluginAsyncZod<EventsRoutesOptions> = async (app, options) => {
  const geo = { countryHeader: options.countryHeader, trustProxy: options.trustProxy };

  app.get('/remote-addr', { schema: { response: { 200: remoteAddrResponseSchema, ...ERROR_RESPONSES } } }, async (request) => ({
    ip: request.ip,
    country: countryOf(request, geo),
  }));

  app.post(
    '/event',
    { schema: { body: eventRequestSchema, response: { 201: eventAcceptedSchema, ...ERROR_RESPONSES } } },
    async (request, reply) => {
      const body = request.body;
      const id = await options.repository.insert(options.db, {
        name: body.event,
        subscriptionId: body.subscription_id ?? null,
        value: body.value ?? null,
        attribution: { ...(compactAttribution(body.campaign) as Record<string, string>), ...visitKeys(body.visit) },
        // What the server sees wins over what the page says about itself.
        ip: request.ip,
        country: countryOf(request, geo) || body.country || null,
        userAgent: body.userAgent ?? request.headers['user-agent'] ?? null,
        createdAt: options.clock.now(),
      });
      return reply.status(201).send({ ok: true as const, id });
    },
  );

  app.addContentTypeParser('text/plain', { parseAs: 'string', bodyLimit: MAX_TRACKING_TEXT }, (_request, body, done) => done(null, body));
  app.post(
    '/subscriptions/:id',
    {
      schema: {
        params: z.object({ id: z.uuid() }),
        body: z.string().max(MAX_TRACKING_TEXT),
        response: { 201: eventAcceptedSchema, ...ERROR_RESPONSES },
      },
    },
    async (request, reply) => {
      const id = await options.repository.insert(options.db, {
        name: TRACKED_PURCHASE_EVENT,
        subscriptionId: request.params.id,
        payload: request.body,
        attribution: attributionOfBody(request.body),
        country: countryOf(request, geo) || null,
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
        createdAt: options.clock.now(),
      });
      return reply.status(201).send({ ok: true as const, id });
    },
  );
};
