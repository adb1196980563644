// What bench:admin times: each dashboard and queue of the operator console asked for over HTTP, as
// the console asks, by an owner who passed the second factor, `runs` times after a warm-up.
import { performance } from 'node:perf_hooks';
import { buildApp } from '../../apps/server/src/app';
import { loadConfig } from '../../apps/server/src/config/env';
import type { Database } from '../../apps/server/src/db/database';
import { signInAsOperator } from '../../apps/server/src/test/operator';

export type QueryTiming = { query: string; p50_ms: number; p95_ms: number; max_ms: number };
export type ConsoleTimings = { first_rollup_ms: number; first_charge_rollup_ms: number; results: QueryTiming[] };

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}
const round = (value: number) => Math.round(value * 10) / 10;

/**
 * Times every endpoint on the seeded database (`subscriptions` buyers, events over `days` days).
 * `only`: the names of the endpoints to time (all when absent).
 */
export async function measureConsole(
  database: Database,
  url: string,
  options: { subscriptions: number; days: number; runs: number; only?: string[] },
): Promise<ConsoleTimings> {
  const { subscriptions, days, runs } = options;
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: url,
    BILLING_SCHEDULER_ENABLED: 'false',
    RATE_LIMIT_PER_MINUTE: '1000000',
  });
  const app = await buildApp({ config, database });
  try {
    const origin = 'http://127.0.0.1:3000';
    const operator = `bench-operator-${Date.now()}@example.com`;
    const { cookie } = await signInAsOperator(app, operator, 'owner', origin);
    const get = async (path: string) => {
      const answer = await app.inject({ method: 'GET', url: path, headers: { cookie, origin } });
      if (answer.statusCode !== 200) throw new Error(`${path}: ${answer.statusCode} ${answer.body.slice(0, 300)}`);
      return answer.body;
    };
    const today = new Date().toISOString().slice(0, 10);
    const daysAgo = (count: number) => new Date(Date.now() - count * 86_400_000).toISOString().slice(0, 10);
    const month = `from=${daysAgo(29)}&to=${today}`;
    const quarter = `from=${daysAgo(days - 1)}&to=${today}`;
    const someBuyer = () => `buyer${1 + Math.floor(Math.random() * subscriptions)}@example.com`;

    const queries: Array<[string, () => Promise<unknown>]> = [
      ['funnel 30 days', () => get(`/api/admin/funnel?${month}`)],
      ['funnel 90 days', () => get(`/api/admin/funnel?${quarter}`)],
      ['revenue 30 days', () => get(`/api/admin/revenue?${month}`)],
      ['revenue 90 days', () => get(`/api/admin/revenue?${quarter}`)],
      ['quality 30 days', () => get(`/api/admin/quality?${month}`)],
      ['quality 90 days', () => get(`/api/admin/quality?${quarter}`)],
      ['plans 90 days', () => get(`/api/admin/plans?${quarter}`)],
      ['customer lookup by email', () => get(`/api/admin/customers?q=${encodeURIComponent(someBuyer())}`)],
      ['search by part of an email', () => get(`/api/admin/search?q=${encodeURIComponent(someBuyer().slice(1, 9))}`)],
      ['customer timeline', () => get(`/api/admin/customers/timeline?email=${encodeURIComponent(someBuyer())}`)],
      ['queue: renewals in 7 days', () => get('/api/admin/queues/renewals?days=7')],
      ['queue: past due', () => get('/api/admin/queues/past-due')],
      ['queue: declined first payments', () => get('/api/admin/queues/failed-payments')],
      ['queue: unclaimed payments', () => get('/api/admin/queues/unclaimed')],
      ['queue: disputes', () => get('/api/admin/queues/disputes')],
      ['queue: webhooks', () => get('/api/admin/queues/webhooks')],
      ['audit log (a page)', () => get('/api/admin/audit')],
    ];
    // The first funnel and revenue questions roll every finished day up (once; later ones roll at most a day).
    const rollupStarted = performance.now();
    await get(`/api/admin/funnel?${quarter}`);
    const firstRollupMs = performance.now() - rollupStarted;
    const chargeRollupStarted = performance.now();
    await get(`/api/admin/revenue?${quarter}`);
    const firstChargeRollupMs = performance.now() - chargeRollupStarted;
    const results: QueryTiming[] = [];
    for (const [name, run] of queries) {
      if (options.only && !options.only.includes(name)) continue;
      await run(); // warm-up
      const times: number[] = [];
      for (let index = 0; index < runs; index += 1) {
        const started = performance.now();
        await run();
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      results.push({
        query: name,
        p50_ms: round(percentile(times, 50)),
        p95_ms: round(percentile(times, 95)),
        max_ms: round(times.at(-1) ?? 0),
      });
    }
    return { first_rollup_ms: Math.round(firstRollupMs), first_charge_rollup_ms: Math.round(firstChargeRollupMs), results };
  } finally {
    await app.close();
  }
}
