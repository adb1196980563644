import {
  cardUpdateCheckoutSchema,
  cardUpdateCompleteRequestSchema,
  cardUpdateCompleteResponseSchema,
  updateCardLinkParamsSchema,
} from '@roots/contracts/card-update';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SessionReader } from '../auth/session';
import type { CardUpdateService } from './card-update.service';

type CardUpdateRoutesOptions = { service: CardUpdateService; sessions: SessionReader };

const subscriptionParams = z.object({ id: z.uuid() });

/**
 * A new card for a subscription (issue 23, ADR 143), by its signed-in owner or by the update-card
 * link of the payment-failed email. Each proof has its two steps: open the card-verification
 * checkout, then complete with the execution the card form reported. Every route reaches the
 * gateway's merchant API, so each is in the merchant-API budget (plugins/merchant-api-budget).
 */
export const cardUpdateRoutes: FastifyPluginAsyncZod<CardUpdateRoutesOptions> = async (app, { service, sessions }) => {
  app.post(
    '/api/account/subscriptions/:id/update-card',
    { schema: { params: subscriptionParams, response: { 200: cardUpdateCheckoutSchema } } },
    async (request) => service.open(await service.ownedBy(await sessions.require(request), request.params.id)),
  );

  app.post(
    '/api/account/subscriptions/:id/update-card/complete',
    { schema: { params: subscriptionParams, body: cardUpdateCompleteRequestSchema, response: { 200: cardUpdateCompleteResponseSchema } } },
    async (request) =>
      service.complete(await service.ownedBy(await sessions.require(request), request.params.id), request.body.execution_id),
  );

  // Opening the emailed link's page changes nothing (mail scanners follow links): the page asks for
  // the checkout with a POST once it runs in a browser.
  app.post(
    '/api/update-card/:content',
    { schema: { params: updateCardLinkParamsSchema, response: { 200: cardUpdateCheckoutSchema } } },
    async (request) => service.open(await service.byLink(request.params.content)),
  );

  app.post(
    '/api/update-card/:content/complete',
    {
      schema: {
        params: updateCardLinkParamsSchema,
        body: cardUpdateCompleteRequestSchema,
        response: { 200: cardUpdateCompleteResponseSchema },
      },
    },
    async (request) => service.complete(await service.byLink(request.params.content), request.body.execution_id),
  );
};
