import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

/** Where the product serves its OpenAPI document (README "HTTP surface"). */
export const OPENAPI_PATH = '/api/openapi.json';

export type OpenApiOptions = {
  title: string;
  version: string;
  description: string;
  /** Whether a route belongs in the document (the API, not pages, assets or dev tools). */
  includes: (url: string) => boolean;
};

/**
 * Registers @fastify/swagger so every route registered after it is described from the zod schemas
 * it validates with (fastify-type-provider-zod's transforms), as OpenAPI 3.1, and serves the
 * document at {@link OPENAPI_PATH} (ADR 113). Must be registered before the routes.
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
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
}
