import { ANALYZER_CHECK_PATH } from '@roots/contracts/analyzer';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { buildAnalyzerApp, type InferenceEngine } from './analyzer-app';
import { loadAnalyzerConfig } from './config';

/** Issue 22: the analyzer answers only the servers (shared secret), and its metrics only the scraper. */

const SECRET = 'analyzer_5Tq9Lm2Xv7Rb4Nk8Wc1Zp6Hs3Jd0Fg';
const TOKEN = 'metrics_8Pw3Kd6Yr1Tn9Vb4Xm7Qs2Lz5Hc0Jf';
const checked: number[] = [];
/** The first bytes of a 64 × 64 PNG (signature and header chunk): enough for the screen, and this engine decodes nothing. */
const PNG_HEAD = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
  Buffer.from('IHDR', 'latin1'),
  Buffer.from([0, 0, 0, 64, 0, 0, 0, 64, 8, 2, 0, 0, 0, 0, 0, 0, 0]),
]);
const engine: InferenceEngine = {
  analyze: async () => ({ ok: false, code: 'NO_FACE' }) as never,
  check: async (bytes) => {
    checked.push(bytes.length);
    return { ok: false, code: 'NO_FACE' } as never;
  },
};

describe('analyzer access', () => {
  const app = buildAnalyzerApp({
    engine,
    queue: { concurrency: 1, maxWaiting: 1, perClient: 2 },
    logger: pino({ level: 'silent' }),
    secret: SECRET,
    metricsAccess: { token: TOKEN },
  });
  afterAll(async () => {
    await app.close();
  });
  const check = (authorization?: string) =>
    app.inject({
      method: 'POST',
      url: ANALYZER_CHECK_PATH,
      headers: { 'content-type': 'application/octet-stream', ...(authorization ? { authorization } : {}) },
      payload: PNG_HEAD,
    });

  it('refuses a photo from anyone without the servers’ secret, before the engine sees it', async () => {
    expect((await check()).statusCode).toBe(401);
    expect((await check('Bearer not-the-secret')).statusCode).toBe(401);
    expect(checked).toEqual([]);
    expect((await check(`Bearer ${SECRET}`)).statusCode).not.toBe(401);
    expect(checked).toEqual([PNG_HEAD.length]);
  });

  it('serves /metrics only with the scraper’s token', async () => {
    expect((await app.inject('/metrics')).statusCode).toBe(401);
    const scraped = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(scraped.statusCode).toBe(200);
    expect(scraped.body).toContain('analyzer_queue_depth');
  });

  it('production does not start without the secret, and has no /metrics without a token', async () => {
    expect(() => loadAnalyzerConfig({ NODE_ENV: 'production' })).toThrow(/ANALYZER_SECRET: required/);
    const production = buildAnalyzerApp({
      engine,
      queue: { concurrency: 1, maxWaiting: 0, perClient: 1 },
      logger: pino({ level: 'silent' }),
      secret: SECRET,
      metricsAccess: 'off',
    });
    expect((await production.inject('/metrics')).statusCode).toBe(404);
    await production.close();
  });
});
