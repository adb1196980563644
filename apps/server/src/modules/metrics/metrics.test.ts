import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RootsApp } from '../../app';
import type { Database } from '../../db/database';
import { reports } from '../../db/schema';
import { buildTestApp, openTestDatabase } from '../../test/helpers';

describe('GET /metrics and request ids', () => {
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

  it('counts requests by route pattern and status, never by raw URL', async () => {
    await app.inject({ method: 'GET', url: '/api/plans' });
    await app.inject({ method: 'POST', url: '/rec/subscriptions/someone%40example.com', payload: {} });
    const page = await app.inject({ method: 'GET', url: '/metrics' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/plain');
    expect(page.body).toMatch(
      /http_request_duration_seconds_count\{service="server",method="GET",route="\/api\/plans",status_code="200"\} 1/,
    );
    expect(page.body).toMatch(/route="\/rec\/subscriptions\/:emailOrId",status_code="200"\} 1/);
    expect(page.body).not.toContain('someone');
  });

  it('reports reports by status, charges, billing and outbox backlog from the database', async () => {
    const now = new Date();
    await database.db.insert(reports).values({
      id: '00000000-0000-4000-8000-000000000001',
      subscriptionId: '00000000-0000-4000-8000-000000000002',
      email: 'metrics@example.com',
      kind: 'extended',
      status: 'expired',
      deadlineAt: now,
      createdAt: now,
      updatedAt: now,
    });
    const page = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(page).toMatch(/roots_reports\{status="expired",service="server"\} 1/);
    expect(page).toMatch(/roots_billing_backlog\{service="server"\} 0/);
    expect(page).toMatch(/roots_email_outbox_backlog\{service="server"\} 0/);
    expect(page).toContain('# TYPE roots_charges gauge');
  });

  it('keeps a well-formed incoming x-request-id and answers it; replaces a malformed one', async () => {
    const kept = await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'trace-42.a' } });
    expect(kept.headers['x-request-id']).toBe('trace-42.a');
    const replaced = await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'bad id with spaces' } });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('with METRICS_TOKEN, answers only the scraper that sends it; production without one has no /metrics (issue 22)', async () => {
    const token = 'metrics_8Pw3Kd6Yr1Tn9Vb4Xm7Qs2Lz5Hc0Jf';
    const guarded = await buildTestApp({ database, env: { METRICS_TOKEN: token } });
    try {
      expect((await guarded.inject('/metrics')).statusCode).toBe(401);
      expect((await guarded.inject({ url: '/metrics', headers: { authorization: 'Bearer wrong' } })).statusCode).toBe(401);
      const scraped = await guarded.inject({ url: '/metrics', headers: { authorization: `Bearer ${token}` } });
      expect(scraped.statusCode).toBe(200);
      expect(scraped.body).toContain('http_request_duration_seconds');
    } finally {
      await guarded.close();
    }
  });
});
