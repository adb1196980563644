import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runClusterScenario } from './test/cluster-scenario';
import { realPostgres } from './test/helpers';

const { url, skip } = realPostgres('the cluster test');
const RATE_LIMIT_PER_MINUTE = 60;
const CONCURRENCY = 3;

// The multi-instance scenario at small scale (bench:cluster runs it larger and prints the figures):
// 3 servers behind a round-robin proxy on one PostgreSQL, 2 analyzers, kill -9 of one of each mid-run.
describe.skipIf(skip)('cluster: 3 server instances, 2 analyzers, one PostgreSQL', () => {
  it('keeps every invariant through kill -9 of a server and an analyzer', { timeout: 420_000 }, async () => {
    const buyers = 9;
    const report = await runClusterScenario({
      postgresUrl: url!,
      workDir: mkdtempSync(join(tmpdir(), 'roots-cluster-')),
      servers: 3,
      analyzers: 2,
      buyers,
      concurrency: CONCURRENCY,
      throughputReports: 0,
      chaos: true,
      rateLimitPerMinute: RATE_LIMIT_PER_MINUTE,
      log: (message) => console.info(`[cluster] ${message}`),
    });
    console.info(
      `[cluster] ${JSON.stringify({ journeys: report.journeys, errors: report.errorsByStatus, invariants: report.invariants })}`,
    );
    const { invariants } = report;
    expect(report.chaos).toEqual({ killedServer: true, killedAnalyzer: true, restarted: true });
    expect(report.journeys.completed + report.journeys.failed).toBe(buyers);
    // A request in flight on the killed instance may cost its journey (at most one per concurrent
    // journey), and a report it was analysing expires: never an invariant.
    expect(report.journeys.completed).toBeGreaterThanOrEqual(buyers - CONCURRENCY);
    expect(invariants.gatewayCharges).toBeGreaterThanOrEqual(buyers - CONCURRENCY);
    expect(invariants.recordedCharges).toBe(invariants.gatewayCharges);
    expect(invariants.doubleCharges).toBe(0);
    expect(invariants.paymentsWithoutSubscription).toBe(0);
    expect(invariants.stuckReports).toBe(0);
    expect(invariants.reportsByStatus.completed ?? 0).toBeGreaterThanOrEqual(buyers - CONCURRENCY);
    expect(Object.keys(invariants.reportsByStatus).every((status) => ['completed', 'failed', 'expired'].includes(status))).toBe(true);
    expect(invariants.emailsReceived).toBeGreaterThan(0);
    expect(invariants.emailsSentTwice).toBe(0);
    expect(invariants.emailsNotSent).toBe(0);
    expect(invariants.rateLimit.perIp).toEqual({ allowed: RATE_LIMIT_PER_MINUTE, limit: RATE_LIMIT_PER_MINUTE, limited: 5 });
    // A lookup by email answers 'Check your email' whatever the email bought (ADR 085), until the limit.
    expect(invariants.rateLimit.perEmail).toEqual([...Array.from({ length: 40 }, () => 200), 429, 429]);
    expect(invariants.rateLimit.faceCheck).toEqual([415, 415, 415, 415, 415, 429, 429, 429]);
    // The servers' own metrics saw the traffic.
    expect(report.metricsRoutes['POST /report/create']?.count ?? 0).toBeGreaterThan(0);
  });
});
