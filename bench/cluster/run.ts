// The multi-instance scenario at bench scale (issue 16, ADR 119): a throw-away PostgreSQL started
// here, the gateway, 3 server instances behind a round-robin proxy, 2 analyzers; bounded real
// traffic (purchases with sandbox cards, reports from dev faces, add-ons, cancellations, two billing
// cycles), kill -9 of one server and one analyzer mid-run and their restart. Prints requests, errors
// by status, p50/p99 per route (driver and servers' /metrics), reports/s with 1 vs 2 analyzers, and
// the invariants.
// Usage: npm run bench:cluster -- [--buyers 40] [--concurrency 8] [--reports 12] [--json]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runClusterScenario } from '../../apps/server/src/test/cluster-scenario';
import { startPostgresCluster } from '../../scripts/lib/postgres-cluster.mjs';

const { values } = parseArgs({
  options: {
    buyers: { type: 'string', default: '40' },
    concurrency: { type: 'string', default: '8' },
    reports: { type: 'string', default: '12' },
    servers: { type: 'string', default: '3' },
    analyzers: { type: 'string', default: '2' },
    json: { type: 'boolean', default: false },
  },
});

const postgres = await startPostgresCluster();
const workDir = mkdtempSync(join(tmpdir(), 'roots-bench-cluster-'));
try {
  const report = await runClusterScenario({
    postgresUrl: postgres.url,
    workDir,
    servers: Number(values.servers),
    analyzers: Number(values.analyzers),
    buyers: Number(values.buyers),
    concurrency: Number(values.concurrency),
    throughputReports: Number(values.reports),
    chaos: true,
    rateLimitPerMinute: 60,
    log: (message) => {
      if (!values.json) console.info(`  ${message}`);
    },
  });
  const { invariants } = report;
  const held = {
    'gateway charges = recorded': invariants.gatewayCharges === invariants.recordedCharges,
    'no double charge': invariants.doubleCharges === 0,
    'no payment without subscription': invariants.paymentsWithoutSubscription === 0,
    'no stuck report': invariants.stuckReports === 0,
    'each email once': invariants.emailsSentTwice === 0 && invariants.emailsNotSent === 0,
    'rate limit across instances':
      invariants.rateLimit.perIp.allowed === invariants.rateLimit.perIp.limit && invariants.rateLimit.perIp.limited > 0,
  };
  if (values.json) {
    console.info(JSON.stringify({ ...report, held, logs: workDir }, null, 2));
  } else {
    console.info(`requests ${report.requests}, journeys ${report.journeys.completed} ok / ${report.journeys.failed} failed`);
    console.info(`errors by status ${JSON.stringify(report.errorsByStatus)}`);
    console.info('route                                   count   p50 ms   p99 ms   (servers /metrics: count p50≤ p99≤)');
    for (const [route, figures] of Object.entries(report.routes)) {
      const metric = report.metricsRoutes[route];
      console.info(
        `${route.padEnd(40)}${String(figures.count).padStart(5)}${String(figures.p50Ms).padStart(9)}${String(figures.p99Ms).padStart(9)}` +
          (metric ? `   (${metric.count} ${metric.p50Ms} ${metric.p99Ms})` : ''),
      );
    }
    if (report.reportsPerSecond) {
      console.info(
        `reports/s: ${report.reportsPerSecond.oneAnalyzer.toFixed(2)} with 1 analyzer, ${report.reportsPerSecond.allAnalyzers.toFixed(2)} with ${values.analyzers}`,
      );
    }
    console.info(`invariants ${JSON.stringify(invariants)}`);
    for (const [name, ok] of Object.entries(held)) console.info(`${ok ? 'ok  ' : 'FAIL'} ${name}`);
    console.info(`logs: ${workDir}`);
  }
  process.exitCode = Object.values(held).every(Boolean) ? 0 : 1;
} finally {
  postgres.stop();
}
