import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './db/database';
import { buildTestApp, openTestDatabase, testDatabases } from './test/helpers';

describe.each(testDatabases())('server app on $name', ({ url }) => {
  let database: Database;
  let app: FastifyInstance;

  beforeAll(async () => {
    database = await openTestDatabase(url);
    app = await buildTestApp({ database });
    app.get('/test/boom', async () => {
      throw new Error('secret internal detail');
    });
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers liveness and readiness', async () => {
    expect((await app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok', checks: { database: 'ok' } });
  });

  it('serves the plan catalog', async () => {
    const response = await app.inject('/api/plans');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.plans).toHaveLength(9);
    expect(body.defaultPlanId).toBe('roots_3d1_7d2499');
    expect(body.singlePurchases[0]).toEqual({
      id: 'roots_premium_one_month',
      summary: { name: 'Premium Plan', price: 13.99, status: 'Premium', billingPeriod: 'every 1 month' },
    });
  });

  it('redirects / to the product prefix', async () => {
    const root = await app.inject('/');
    expect(root.statusCode).toBe(302);
    expect(root.headers.location).toBe('/roots/');
    expect((await app.inject('/roots')).headers.location).toBe('/roots/');
  });

  it('serves index.html no-cache with the base URL and public config for every product route', async () => {
    for (const path of ['/roots/', '/roots/subscription', '/roots/webapp/myethnicity/abc?x=1']) {
      const page = await app.inject({ url: path, headers: { accept: 'text/html' } });
      expect(page.statusCode, path).toBe(200);
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(page.body).toContain('<base href="/roots/">');
      const config = JSON.parse(/<script type="application\/json" id="roots-config">(.*?)<\/script>/.exec(page.body)![1]!);
      expect(config).toMatchObject({ slug: 'roots', productName: 'Roots', version: '0.42.12' });
    }
  });

  it('serves hashed assets immutable and other static files briefly cached', async () => {
    const asset = await app.inject('/roots/assets/index-AbC123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const image = await app.inject('/roots/images/walkthrough-1.svg');
    expect(image.statusCode).toBe(200);
    expect(image.headers['cache-control']).toBe('public, max-age=3600');
    const missing = await app.inject('/roots/assets/gone-123.js');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'Not found', code: 'NOT_FOUND' });
    expect((await app.inject('/roots/index.html')).headers['cache-control']).toBe('no-cache');
  });

  it('sends the build’s precompressed assets to browsers that accept them', async () => {
    const brotli = await app.inject({ url: '/roots/assets/index-AbC123.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe('console.info("app")');
    const gzip = await app.inject({ url: '/roots/assets/index-AbC123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe('console.info("app")');
    const plain = await app.inject({ url: '/roots/assets/index-AbC123.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.info("app")');
  });

  it('answers 404 with the SPA for pages outside the product, and JSON for API calls', async () => {
    const page = await app.inject({ url: '/somewhere/else', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('id="roots-config"');
    const api = await app.inject({ method: 'POST', url: '/api/nothing' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ error: 'Route POST /api/nothing not found', code: 'NOT_FOUND' });
  });

  it('hides 5xx detail behind one error shape', async () => {
    const response = await app.inject('/test/boom');
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: 'Something went wrong', code: 'INTERNAL_ERROR' });
    expect(response.body).not.toContain('secret');
  });

  it('reports not ready when the database is gone', async () => {
    await database.close();
    const ready = await app.inject('/readyz');
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'unavailable', checks: { database: 'failed' } });
  });
});

describe('white-label slug', () => {
  it('serves the SPA and plan ids under another slug', async () => {
    const database = await openTestDatabase(undefined);
    const app = await buildTestApp({ database, env: { PRODUCT_SLUG: 'kin', PRODUCT_NAME: 'Kin & Co' } });
    expect((await app.inject('/')).headers.location).toBe('/kin/');
    const page = await app.inject('/kin/webapp');
    expect(page.body).toContain('<base href="/kin/">');
    expect(page.body).toContain('<title>Kin &#38; Co</title>');
    expect((await app.inject('/api/plans')).json().plans[0].id).toBe('kin_3d1_7d2499');
    await app.close();
    await database.close();
  });
});
