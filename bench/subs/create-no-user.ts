// Throughput and latency of POST /subs/create-no-user through the real gateway on loopback.
// Usage: node --import tsx bench/subs/create-no-user.ts [--requests 300] [--concurrency 16] [--json]
// With DATABASE_URL set the server uses that PostgreSQL; otherwise in-memory PGlite.
// Each request turns a distinct, already-paid execution into a subscription (the server fetches the
// execution from the gateway, then writes subscription, charge, grant, receipt and events in one
// transaction). Paying (tokenize, save, authorize) is set-up and is not timed.
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { startGatewayProcess } from '../../apps/server/src/test/gateway-process';
import { startServerProcess } from '../../apps/server/src/test/server-process';
import { http, payWithCard, purchaseBody } from '../../apps/server/src/test/shopper';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '300' },
    concurrency: { type: 'string', default: '16' },
    json: { type: 'boolean', default: false },
  },
});
const REQUESTS = Number(values.requests);
const CONCURRENCY = Number(values.concurrency);
const PLAN_ID = 'roots_3d1_7d2499';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** Runs `work(i)` for i in [0, total) with at most `concurrency` in flight. */
async function pool(total: number, concurrency: number, work: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, total) }, async () => {
      while (next < total) await work(next++);
    }),
  );
}

const gateway = await startGatewayProcess({ LOG_LEVEL: 'error' });
const server = await startServerProcess({
  LOG_LEVEL: 'error',
  GATEWAY_URL: gateway.url,
  BILLING_SCHEDULER_ENABLED: 'false',
  RATE_LIMIT_PER_MINUTE: '1000000',
  EMAIL_RATE_LIMIT_PER_HOUR: '1000000',
  GATEWAY_CLIENT_BUDGET_PER_MINUTE: '1000000',
  GATEWAY_SESSION_BUDGET_PER_MINUTE: '1000000',
  GATEWAY_CLIENT_PURCHASE_BUDGET_PER_MINUTE: '1000000',
  ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : { DATA_DIR: 'memory://' }),
});
try {
  const paid: Array<Awaited<ReturnType<typeof payWithCard>>> = [];
  await pool(REQUESTS, 8, async () => {
    paid.push(await payWithCard(server.url, PLAN_ID));
  });

  const latenciesMs: number[] = [];
  let failures = 0;
  const started = performance.now();
  await pool(REQUESTS, CONCURRENCY, async (index) => {
    const t0 = performance.now();
    const answer = await http(`${server.url}/subs/create-no-user`, { json: purchaseBody(paid[index]!, `bench${index}@example.com`) });
    latenciesMs.push(performance.now() - t0);
    if (answer.status !== 200) failures += 1;
  });
  const wallS = (performance.now() - started) / 1000;
  latenciesMs.sort((a, b) => a - b);
  const result = {
    endpoint: 'POST /subs/create-no-user',
    database: process.env.DATABASE_URL ? 'postgres' : 'pglite (memory)',
    requests: REQUESTS,
    concurrency: CONCURRENCY,
    failures,
    throughputPerS: Math.round((REQUESTS / wallS) * 10) / 10,
    p50Ms: Math.round(percentile(latenciesMs, 50) * 10) / 10,
    p99Ms: Math.round(percentile(latenciesMs, 99) * 10) / 10,
    maxMs: Math.round((latenciesMs.at(-1) ?? 0) * 10) / 10,
    cpus: availableParallelism(),
  };
  if (values.json) console.log(JSON.stringify(result));
  else {
    console.log(`${result.endpoint} through the gateway on loopback (${result.database}, ${result.cpus} CPUs)`);
    console.log(`  ${REQUESTS} requests, concurrency ${CONCURRENCY}, ${failures} failed`);
    console.log(`  throughput ${result.throughputPerS} req/s   p50 ${result.p50Ms} ms   p99 ${result.p99Ms} ms   max ${result.maxMs} ms`);
  }
} finally {
  await server.stop();
  await gateway.stop();
}
