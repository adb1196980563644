// Report service throughput on this machine: POST /report/create through analysis to `completed`,
// and POST /report/get-report on a completed report.
// Usage: node --import tsx bench/reports/run.ts [--reports 40] [--concurrency 8] [--gets 1000] [--json]
// The server runs as its own process (tsx) with ANALYSIS_WORKERS (default: available cores) and
// in-memory PGlite unless DATABASE_URL is set. Buying the subscription is set-up, not timed.
// "create" latency is the HTTP answer (report pending); "end-to-end" is create until get-report
// says completed/failed (polled every 50 ms). Photos: the first FairFace dev images, round robin.
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { datasetFace } from '../../apps/server/src/modules/reports/report-fixtures';
import { startGatewayProcess } from '../../apps/server/src/test/gateway-process';
import { startServerProcess } from '../../apps/server/src/test/server-process';
import { http, payWithCard, purchaseBody } from '../../apps/server/src/test/shopper';

const { values } = parseArgs({
  options: {
    reports: { type: 'string', default: '40' },
    concurrency: { type: 'string', default: '8' },
    gets: { type: 'string', default: '1000' },
    json: { type: 'boolean', default: false },
  },
});
const REPORTS = Number(values.reports);
const CONCURRENCY = Number(values.concurrency);
const GETS = Number(values.gets);
const WORKERS = process.env.ANALYSIS_WORKERS ?? String(availableParallelism());
const POLL_MS = 50;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}
const round = (value: number) => Math.round(value * 10) / 10;

async function pool(total: number, concurrency: number, work: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, total) }, async () => {
      while (next < total) await work(next++);
    }),
  );
}

type Answer = { report_id: string; status: string; report?: { status: string } };

const gateway = await startGatewayProcess({ LOG_LEVEL: 'error' });
const server = await startServerProcess({
  LOG_LEVEL: 'error',
  GATEWAY_URL: gateway.url,
  BILLING_SCHEDULER_ENABLED: 'false',
  RATE_LIMIT_PER_MINUTE: '1000000',
  EMAIL_RATE_LIMIT_PER_HOUR: '1000000',
  GATEWAY_CLIENT_BUDGET_PER_MINUTE: '1000000',
  GATEWAY_CLIENT_PURCHASE_BUDGET_PER_MINUTE: '1000000',
  ANALYSIS_WORKERS: WORKERS,
  ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : { DATA_DIR: 'memory://' }),
});
try {
  const paid = await payWithCard(server.url, 'roots_3d1_7d2499');
  const owner = { email: 'bench-reports@example.com', subscription_id: '' };
  owner.subscription_id = (
    await http<{ id: string }>(`${server.url}/subs/create-no-user`, { json: purchaseBody(paid, owner.email) })
  ).body.id;
  const images = Array.from({ length: 12 }, (_, index) => datasetFace(index).toString('base64'));
  const get = (reportId: string) => http<Answer>(`${server.url}/report/get-report`, { json: { ...owner, report_id: reportId } });

  // Warm-up: one report, so worker cold start (~0.9 s each) is not in the figures.
  const warm = await http<Answer>(`${server.url}/report/create`, { json: { ...owner, image: images[0] } });
  while (['pending', 'processing'].includes((await get(warm.body.report_id)).body.report?.status ?? '')) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }

  const createMs: number[] = [];
  const endToEndMs: number[] = [];
  const outcomes: Record<string, number> = {};
  const started = performance.now();
  await pool(REPORTS, CONCURRENCY, async (index) => {
    const t0 = performance.now();
    const created = await http<Answer>(`${server.url}/report/create`, { json: { ...owner, image: images[index % images.length] } });
    createMs.push(performance.now() - t0);
    let status = created.status === 200 ? 'pending' : `http ${created.status}`;
    while (status === 'pending' || status === 'processing') {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      status = (await get(created.body.report_id)).body.report?.status ?? 'error';
    }
    endToEndMs.push(performance.now() - t0);
    outcomes[status] = (outcomes[status] ?? 0) + 1;
  });
  const createWallS = (performance.now() - started) / 1000;

  const getMs: number[] = [];
  let getFailures = 0;
  const getStarted = performance.now();
  await pool(GETS, 16, async () => {
    const t0 = performance.now();
    const answer = await get(warm.body.report_id);
    getMs.push(performance.now() - t0);
    if (answer.status !== 200) getFailures += 1;
  });
  const getWallS = (performance.now() - getStarted) / 1000;

  for (const list of [createMs, endToEndMs, getMs]) list.sort((a, b) => a - b);
  const result = {
    database: process.env.DATABASE_URL ? 'postgres' : 'pglite (memory)',
    cpus: availableParallelism(),
    analysisWorkers: Number(WORKERS),
    create: {
      reports: REPORTS,
      concurrency: CONCURRENCY,
      outcomes,
      reportsPerS: round(REPORTS / createWallS),
      createP50Ms: round(percentile(createMs, 50)),
      createP99Ms: round(percentile(createMs, 99)),
      endToEndP50Ms: round(percentile(endToEndMs, 50)),
      endToEndP99Ms: round(percentile(endToEndMs, 99)),
    },
    getReport: {
      requests: GETS,
      concurrency: 16,
      failures: getFailures,
      throughputPerS: round(GETS / getWallS),
      p50Ms: round(percentile(getMs, 50)),
      p99Ms: round(percentile(getMs, 99)),
    },
  };
  if (values.json) console.log(JSON.stringify(result));
  else {
    console.log(`Report service (${result.database}, ${result.cpus} CPUs, ${result.analysisWorkers} analysis workers)`);
    const c = result.create;
    console.log(`  report/create ${c.reports} photos, concurrency ${c.concurrency}: ${JSON.stringify(c.outcomes)}`);
    console.log(
      `    ${c.reportsPerS} reports/s   create answer p50 ${c.createP50Ms} ms p99 ${c.createP99Ms} ms   end-to-end p50 ${c.endToEndP50Ms} ms p99 ${c.endToEndP99Ms} ms`,
    );
    const g = result.getReport;
    console.log(`  report/get-report ${g.requests} requests, concurrency ${g.concurrency}, ${g.failures} failed`);
    console.log(`    ${g.throughputPerS} req/s   p50 ${g.p50Ms} ms   p99 ${g.p99Ms} ms`);
  }
} finally {
  await server.stop();
  await gateway.stop();
}
