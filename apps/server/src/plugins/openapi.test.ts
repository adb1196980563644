import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAPI_PATH, type RootsApp } from '../app';
import { buildTestApp, openTestDatabase } from '../test/helpers';

/** The committed document; `UPDATE_OPENAPI=1 npx vitest run apps/server/src/plugins/openapi.test.ts` rewrites it. */
const COMMITTED = new URL('../../../../docs/api/product.openapi.json', import.meta.url);

describe('the product API’s OpenAPI document (ADR 113)', () => {
  let app: RootsApp;
  beforeAll(async () => {
    app = await buildTestApp({ database: await openTestDatabase(undefined) });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
  });

  it('is OpenAPI 3.1, generated from the routes’ zod schemas, served at /api/openapi.json', async () => {
    const served = await app.inject(OPENAPI_PATH);
    expect(served.statusCode).toBe(200);
    const document = served.json<{ openapi: string; paths: Record<string, Record<string, { requestBody?: unknown }>> }>();
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/subs/create-no-user', '/api/cancel', '/report/create', '/event']),
    );
    // Pages, assets and dev tools are not API.
    expect(Object.keys(document.paths).some((path) => path.startsWith('/roots') || path.startsWith('/dev/'))).toBe(false);
    expect(JSON.stringify(document.paths['/subs/create-no-user']?.post?.requestBody)).toContain('"plan_id"');
  });

  it('matches the committed docs/api/product.openapi.json (no drift)', () => {
    const generated = `${JSON.stringify(app.swagger(), null, 2)}\n`;
    if (process.env.UPDATE_OPENAPI === '1') writeFileSync(COMMITTED, generated);
    expect(existsSync(COMMITTED), 'run with UPDATE_OPENAPI=1 to write it').toBe(true);
    expect(readFileSync(COMMITTED, 'utf8'), 'the API changed: run with UPDATE_OPENAPI=1 and commit docs/api').toBe(generated);
  });
});
