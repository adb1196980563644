import { MESSAGES } from '@roots/contracts';
import type { FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { validationDetails } from './error-handler';

/** The spec's fallback message for a failing checkout or subscription endpoint (product-spec §8). */
export function specFallbackFor(url: string): string {
  if (url.startsWith('/subs/finalize')) return MESSAGES.finalizeError;
  if (url.startsWith('/rec/')) return MESSAGES.noSubscriptionData;
  if (url.startsWith('/subs/')) return MESSAGES.cantCreateSubscription;
  return MESSAGES.somethingWentWrong;
}

/**
 * Inside the calling plugin, bad bodies answer the spec's message for the endpoint (4xx,
 * VALIDATION_ERROR); the rest goes to the app's handler.
 */
export function answerBadBodiesWithSpecFallback(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply
        .status(400)
        .send({ error: specFallbackFor(request.url), code: 'VALIDATION_ERROR', details: validationDetails(error.validation) });
    }
    throw error;
  });
}
