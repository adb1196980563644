import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RootsApp } from '../apps/server/src/app';
import type { Database } from '../apps/server/src/db/database';
import { buildTestApp, openTestDatabase } from '../apps/server/src/test/helpers';
import { SERVER_PATHS } from '../apps/web/vite.config';

/** Issue 24: under `npm run dev` the Vite server passes every server route on, not only `/api`. */
describe('the dev server proxies every server route', () => {
  let database: Database;
  let app: RootsApp;
  beforeAll(async () => {
    database = await openTestDatabase(undefined);
    app = await buildTestApp({ database });
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('covers each route the server registers outside the SPA', () => {
    const served = app.roots.routes.map((route) => route.url).filter((url) => url !== '*' && !url.startsWith('/roots') && url !== '/');
    expect(served.length).toBeGreaterThan(20);
    const uncovered = served.filter((url) => !SERVER_PATHS.some((path) => url === path || url.startsWith(`${path}/`)));
    expect(uncovered).toEqual([]);
  });
});
