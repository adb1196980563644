import {
  cardUpdateCheckoutSchema,
  cardUpdateCompleteRequestSchema,
  cardUpdateCompleteResponseSchema,
  updateCardLinkParamsSchema,
} from '@roots/contracts/card-update';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { MerchantApiBudget } from '../../plugins/merchant-api-budget';
import type { SessionReader } from '../auth/session';
import type { SubscriptionRow } from '../subscriptions/subscriptions.repository';
import type { CardUpdateService } from './card-update.service';

type CardUpdateRoutesOptions = { service: CardUpdateService; sessions: SessionReader; budget: MerchantApiBudget };

const subscriptionParams = z.object({ id: z.uuid() });

/**
 * A new card for a subscription (issue 23, ADR 143), by its signed-in owner or by the update-card
 * link of the payment-failed email. Each proof has its two steps: open the card-verification
 * checkout, then complete with the execution the card form reported. Every route reaches the
 * gateway's merchant API: once the proof holds, each spends the subscription's own budget, never a
 * share strangers can drain (plugins/merchant-api-budget, ADR 160).
 */
export const cardUpdateRoutes: FastifyPluginAsyncZod<CardUpdateRoutesOptions> = async (app, { service, sessions, budget }) => {
  /** The proven subscription, once its budget admits one more gateway call. */
  const admitted = async (row: SubscriptionRow) => {
    await budget.owner(row.id);
    return row;
  };

  app.post(
    '/api/account/subscriptions/:id/update-card',
    { schema: { params: subscriptionParams, response: { 200: cardUpdateCheckoutSchema } } },
    async (request) => service.open(await admitted(await service.ownedBy(await sessions.require(request), request.params.id))),
  );

  app.post(
    '/api/account/subscriptions/:id/update-card/complete',
    { schema: { params: subscriptionParams, body: cardUpdateCompleteRequestSchema, response: { 200: cardUpdateCompleteResponseSchema } } },
    async (request) =>
      service.complete(
        await admitted(await service.ownedBy(await sessions.require(request), request.params.id)),
        request.body.execution_id,
      ),
  );

  // Opening the emailed link's page changes nothing (mail scanners follow links): the page asks for
  // the checkout with a POST once it runs in a browser.
  app.post(
    '/api/update-card/:content',
    { schema: { params: updateCardLinkParamsSchema, response: { 200: cardUpdateCheckoutSchema } } },
    async (request) => service.open(await admitted(await service.byLink(request.params.content))),
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
    async (request) => service.complete(await admitted(await service.byLink(request.params.content)), request.body.execution_id),
  );
};
