import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

export type OpenApiOptions = {
  /** Where the document is served, e.g. `/api/openapi.json`. */
  path: string;
  title: string;
  version: string;
  description: string;
  /** Whether a route belongs in the document (the API, not pages, assets or dev tools). */
  includes: (url: string) => boolean;
};

/**
 * Registers @fastify/swagger so every route registered after it is described from the zod schemas
 * it validates with (fastify-type-provider-zod's transforms), as OpenAPI 3.1, and serves the
 * document at `options.path` (ADR 113). Must be registered before the routes. The product server
 * and the gateway sandbox both use it.
 *
 * @example
 * await registerOpenApi(app, { path: '/openapi.json', title: 'Gateway', version: '1.0.0', description: '…', includes: (url) => url.startsWith('/v1/') });
 */
export async function registerOpenApi(app: FastifyInstance, options: OpenApiOptions): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: options.title, version: options.version, description: options.description },
    },
    transform: (input) => {
      const transformed = jsonSchemaTransform(input);
      return options.includes(input.url) ? transformed : { ...transformed, schema: { ...transformed.schema, hide: true } };
    },
    transformObject: jsonSchemaTransformObject,
  });
  app.get(options.path, { schema: { hide: true } }, async () => app.swagger());
}
