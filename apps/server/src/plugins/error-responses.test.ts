import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RootsApp } from '../app';
import type { Database } from '../db/database';
import { buildTestApp, openTestDatabase } from '../test/helpers';

/** A concrete URL for a route pattern: ids where the route takes params, something under a wildcard. */
function concreteUrl(pattern: string): string {
  return pattern.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000').replace(/\*$/, 'anything');
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

describe('every route answers its errors as { error, code }, never through a success schema', () => {
  let database: Database;
  let app: RootsApp;
  // Over every route's body limit (the largest is the report's ~20 MB photo envelope).
  const oversized = JSON.stringify({ plan_id: 'roots_3d1_7d2499', email: 'a@b.co', padding: 'x'.repeat(21 * 1024 * 1024) });

  beforeAll(async () => {
    database = await openTestDatabase(undefined);
    app = await buildTestApp({ database, env: { RATE_LIMIT_PER_MINUTE: '100000', EMAIL_RATE_LIMIT_PER_HOUR: '100000' } });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('declares 4xx and 5xx answers beside every success schema', () => {
    const withSchemas = app.roots.routes.filter((route) => route.response);
    expect(withSchemas.length).toBeGreaterThan(30);
    for (const route of withSchemas) {
      expect(Object.keys(route.response ?? {}), `${route.methods.join(',')} ${route.url}`).toEqual(expect.arrayContaining(['4xx', '5xx']));
    }
  });

  it('answers an oversized body with 413 and bad JSON with a 4xx, on every route that reads a body', async () => {
    let requests = 0;
    const targets = app.roots.routes.flatMap((route) =>
      route.methods.filter((method) => BODY_METHODS.has(method)).map((method) => ({ method, url: concreteUrl(route.url) })),
    );
    expect(targets.length).toBeGreaterThan(25);
    for (const { method, url } of targets) {
      const label = `${method} ${url}`;
      const tooLarge = await app.inject({
        method: method as 'POST',
        url,
        payload: oversized,
        headers: { 'content-type': 'application/json' },
      });
      requests += 1;
      // The operator gate refuses a visitor before any body is read (ADR 150): nothing to parse.
      if (url.startsWith('/api/admin/')) {
        expect(tooLarge.statusCode, label).toBe(401);
        expect(tooLarge.json(), label).toEqual({ error: expect.any(String), code: expect.any(String) });
        continue;
      }
      expect(tooLarge.statusCode, label).toBe(413);
      expect(tooLarge.json(), label).toEqual({ error: expect.any(String), code: 'PAYLOAD_TOO_LARGE' });
      // better-auth parses its own bodies and answers in its own shape; every other route answers ours.
      if (url.startsWith('/api/auth/')) continue;
      const broken = await app.inject({
        method: method as 'POST',
        url,
        payload: '{"broken',
        headers: { 'content-type': 'application/json' },
      });
      requests += 1;
      expect(broken.statusCode, label).toBeGreaterThanOrEqual(400);
      expect(broken.statusCode, label).toBeLessThan(500);
      expect(broken.json(), label).toMatchObject({ error: expect.any(String), code: expect.any(String) });
    }
    console.info(`[error-responses] ${targets.length} route methods, ${requests} requests, 0 × 5xx`);
  }, 240_000);
});
