import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, serverLoggerOptions } from '../app';
import { loadConfig } from '../config/env';
import type { Database } from '../db/database';
import { funnelEvents } from '../db/schema';
import { makeWebDist, openTestDatabase } from '../test/helpers';
import { findNul } from '@roots/contracts/text';
import { maskEmailsDeep } from './text-guard';

describe('NUL bytes in text fields', () => {
  let database: Database;
  let app: Awaited<ReturnType<typeof buildApp>>;
  const logLines: string[] = [];

  beforeAll(async () => {
    database = await openTestDatabase(undefined);
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString());
        done();
      },
    });
    const config = loadConfig({ NODE_ENV: 'test', WEB_DIST_DIR: makeWebDist(), RATE_LIMIT_PER_MINUTE: '100000' });
    app = await buildApp({ config, database, loggerInstance: pino(serverLoggerOptions('info'), sink) });
    app.post('/test/fail-with-params', async () => {
      throw Object.assign(new Error('insert failed for victim@example.com'), { params: ['victim@example.com', 'x'] });
    });
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers 400 with {error, code} wherever the NUL is, and stores nothing', async () => {
    const count = () => database.db.$count(funnelEvents);
    const before = await count();
    const cases = [
      { method: 'POST' as const, url: '/event', payload: { event: 'view\u0000', userAgent: 'victim@example.com' } },
      { method: 'POST' as const, url: '/event', payload: { event: 'view', campaign: { utm_source: 'a\u0000b' } } },
      { method: 'POST' as const, url: '/api/cancel-request', payload: { email: 'victim\u0000@example.com' } },
      { method: 'POST' as const, url: '/rec/subscriptions/victim%00@example.com', payload: {} },
      { method: 'GET' as const, url: '/api/plans?x=%00' },
    ];
    for (const request of cases) {
      const response = await app.inject(request);
      expect(response.statusCode, request.url).toBe(400);
      expect(response.json(), request.url).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.stringContaining('NUL') });
    }
    expect(await count()).toBe(before);
    expect(logLines.join('')).not.toContain('victim@example.com');
  });

  it('never writes an email in clear in an error log, even inside an error’s own fields', async () => {
    const response = await app.inject({ method: 'POST', url: '/test/fail-with-params', payload: {} });
    expect(response.statusCode).toBe(500);
    const logged = logLines.join('');
    expect(logged).toContain('request failed');
    expect(logged).toContain('v***@example.com#');
    expect(logged).not.toContain('victim@example.com');
  });

  it('finds a NUL at any depth, in keys too, and masks emails at any depth', () => {
    expect(findNul({ a: [{ b: 'ok' }, { c: 'x\u0000' }] })).toBe('a.1.c');
    expect(findNul({ ['k\u0000']: 1 })).toBe('k\\0');
    expect(findNul({ a: 'fine', n: 1, z: null })).toBeUndefined();
    expect(maskEmailsDeep({ list: ['to jane@example.com now'] })).toEqual({
      list: [expect.stringMatching(/^to j\*\*\*@example\.com#[0-9a-f]{8} now$/)],
    });
  });
});
