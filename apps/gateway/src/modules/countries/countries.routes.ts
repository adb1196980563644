import type { FastifyInstance } from 'fastify';
import { countriesAsset } from './countries';

/** Seconds browsers and CDNs may cache the countries asset. */
export const COUNTRIES_MAX_AGE_SECONDS = 86_400;

/** GET /assets/countries.json: public, cacheable, CORS for any origin (plugins/cors.ts). */
export async function countriesRoutes(app: FastifyInstance): Promise<void> {
  app.get('/assets/countries.json', async (request, reply) => {
    const asset = countriesAsset();
    reply.header('cache-control', `public, max-age=${COUNTRIES_MAX_AGE_SECONDS}`).header('etag', asset.etag);
    if (request.headers['if-none-match'] === asset.etag) return reply.status(304).send();
    return reply.type('application/json; charset=utf-8').send(asset.body);
  });
}
