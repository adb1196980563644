import { apiErrorSchema } from '@roots/contracts';
import type { FastifyInstance, RouteOptions } from 'fastify';

/**
 * What every route answers on failure: `{ error, code }` for any 4xx and 5xx. Spread into a route's
 * `response` beside its success schemas (fastify/demo declares every status the same way):
 *
 * @example
 * app.get('/api/plans', { schema: { response: { 200: planCatalogSchema, ...ERROR_RESPONSES } } }, handler);
 */
export const ERROR_RESPONSES = { '4xx': apiErrorSchema, '5xx': apiErrorSchema } as const;

/** A route as the app registered it: method(s), URL and whether its schema declares each answer. */
export type RegisteredRoute = { methods: string[]; url: string; response: Record<string, unknown> | undefined };

/**
 * Makes every route with a response schema declare its error answers, so an error reply is
 * serialized by the error schema and never checked against a success schema (issue 17: a 413 once
 * came back as a 500 ResponseSerializationError). Routes that declare their own keep them. Returns
 * the live list of routes, in registration order, for tests that walk every route.
 */
export function registerErrorResponses(app: FastifyInstance): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  app.addHook('onRoute', (route: RouteOptions) => {
    const response = route.schema?.response as Record<string, unknown> | undefined;
    if (route.schema && response) route.schema.response = { ...ERROR_RESPONSES, ...response };
    routes.push({
      methods: Array.isArray(route.method) ? [...route.method] : [route.method],
      url: route.url,
      response: route.schema?.response as Record<string, unknown> | undefined,
    });
  });
  return routes;
}
