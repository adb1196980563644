import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RootsApp } from '../app';
import type { Database } from '../db/database';
import { buildTestApp, openTestDatabase } from '../test/helpers';
import { signInWithEmailCode } from '../test/sign-in';
import { FOREIGN_ORIGIN_MESSAGE } from './csrf';

const OWN_ORIGIN = 'http://127.0.0.1:3000';

describe('origin check of cookie-carrying state changes (CSRF, ADR 111)', () => {
  let database: Database;
  let app: RootsApp;
  let cookie: string;

  beforeAll(async () => {
    database = await openTestDatabase(undefined);
    app = await buildTestApp({ database, env: { AUTH_TRUSTED_ORIGINS: 'https://app.roots.example' } });
    cookie = await signInWithEmailCode(app, 'csrf-owner@example.com');
  });
  afterAll(async () => {
    await app.close();
  });

  const putProfile = (headers: Record<string, string>) =>
    app.inject({
      method: 'PUT',
      url: '/api/account/profile',
      headers: { 'content-type': 'application/json', ...headers },
      payload: { name: 'Mallory', birth_date: '1990-01-02', birth_time: '10:30' },
    });
  const profileName = async () =>
    (await app.inject({ method: 'GET', url: '/api/account/profile', headers: { cookie } })).json<{ name?: string | null }>().name;

  it('refuses a foreign, opaque or missing Origin when the request carries a cookie, and changes nothing', async () => {
    const before = await profileName();
    for (const origin of ['https://evil.example', 'null', 'http://127.0.0.1:3000.evil.example', undefined]) {
      const response = await putProfile({ cookie, ...(origin ? { origin } : {}) });
      expect(response.statusCode, String(origin)).toBe(403);
      expect(response.json()).toEqual({ error: FOREIGN_ORIGIN_MESSAGE, code: 'FORBIDDEN' });
    }
    for (const [method, url] of [
      ['POST', '/api/account/subscriptions/00000000-0000-4000-8000-000000000000/cancel'],
      ['DELETE', '/api/account'],
      ['POST', '/report/update'],
      ['POST', '/api/auth/sign-out'],
    ] as const) {
      const response = await app.inject({
        method,
        url,
        headers: { cookie, origin: 'https://evil.example', 'content-type': 'application/json' },
        payload: {},
      });
      expect(response.statusCode, url).toBe(403);
    }
    expect(await profileName()).toBe(before);
    expect((await app.inject({ method: 'GET', url: '/api/account/me', headers: { cookie } })).statusCode).toBe(200);
  });

  it('lets our own origins through, and requests without cookies are not its concern', async () => {
    const own = await putProfile({ cookie, origin: OWN_ORIGIN });
    expect(own.statusCode).toBe(200);
    expect(await profileName()).toBe('Mallory');
    expect((await putProfile({ cookie, origin: 'https://app.roots.example' })).statusCode).toBe(200);
    // No cookie: the route's own authentication answers (401), not the origin check.
    const anonymous = await putProfile({ origin: 'https://evil.example' });
    expect(anonymous.statusCode).toBe(401);
    // Reads are never refused.
    expect(
      (await app.inject({ method: 'GET', url: '/api/account/me', headers: { cookie, origin: 'https://evil.example' } })).statusCode,
    ).toBe(200);
  });
});
