import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parser } from '@prometheus-io/lezer-promql';
import { ANALYZER_CHECK_PATH } from '@roots/contracts/analyzer';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { buildAnalyzerApp, type InferenceEngine } from '../apps/analyzer/src/analyzer-app';
import { startGateway, type TestGateway } from '../apps/gateway/src/test/helpers';
import type { RootsApp } from '../apps/server/src/app';
import type { Database } from '../apps/server/src/db/database';
import { charges, disputes, reports, unmatchedPayments } from '../apps/server/src/db/schema';
import { buildTestApp, openTestDatabase, skippedSuites } from '../apps/server/src/test/helpers';
import { promtoolPath } from './lib/promtool.mjs';

/**
 * Issue 25: the alert rules and the dashboard an operator wires up. Prometheus's own promtool checks
 * the rules and runs their unit tests (each alert fires on the series that should wake someone and
 * stays quiet below its threshold); every series they read is one the server, the gateway or an
 * analyzer really exports, with the labels they match on; every runbook link names a section of
 * docs/operations.md.
 */

type Rule = { record?: string; alert?: string; expr: string; labels?: Record<string, string>; annotations?: Record<string, string> };
const RULES_FILE = 'ops/prometheus/roots-alerts.yml';
const rules = (parseYaml(readFileSync(RULES_FILE, 'utf8')) as { groups: Array<{ rules: Rule[] }> }).groups.flatMap((group) => group.rules);
const dashboard = JSON.parse(readFileSync('ops/grafana/roots-dashboard.json', 'utf8')) as {
  panels: Array<{ title: string; targets: Array<{ expr: string }> }>;
};
const recorded = new Set(rules.flatMap((rule) => (rule.record ? [rule.record] : [])));
/** Labels Prometheus adds to every scraped series (the target's); `service` is set by our processes. */
const TARGET_LABELS = new Set(['instance', 'job']);

/** The series an expression reads: metric name and the label names it matches on. */
function selectors(expr: string): Array<{ metric: string; labels: string[] }> {
  const tree = parser.parse(expr);
  const found: Array<{ metric: string; labels: string[] }> = [];
  const errors: string[] = [];
  tree.iterate({
    enter(node) {
      if (node.type.isError) errors.push(expr.slice(node.from, node.to + 10));
      if (node.name !== 'VectorSelector') return;
      const identifier = node.node.getChild('Identifier');
      const labels = node.node
        .getChild('LabelMatchers')
        ?.getChildren('UnquotedLabelMatcher')
        .map((matcher) => matcher.getChild('LabelName'))
        .flatMap((name) => (name ? [expr.slice(name.from, name.to)] : []));
      if (identifier) found.push({ metric: expr.slice(identifier.from, identifier.to), labels: labels ?? [] });
    },
  });
  expect(errors, `PromQL that does not parse: ${expr}`).toEqual([]);
  return found;
}

/** Series names (histograms with their _bucket/_sum/_count) and the labels their samples carry. */
function exported(page: string): Map<string, Set<string>> {
  const series = new Map<string, Set<string>>();
  for (const line of page.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)/.exec(line);
    if (type) {
      const [, name, kind] = type as unknown as [string, string, string];
      const names = kind === 'histogram' ? [`${name}_bucket`, `${name}_sum`, `${name}_count`] : [name];
      for (const each of names) series.set(each, series.get(each) ?? new Set());
      continue;
    }
    const sample = /^([a-zA-Z_:][\w:]*)\{([^}]*)\}/.exec(line);
    if (sample) {
      const labels = series.get(sample[1] as string) ?? new Set<string>();
      for (const pair of (sample[2] as string).matchAll(/(\w+)="/g)) labels.add(pair[1] as string);
      series.set(sample[1] as string, labels);
    }
  }
  return series;
}

describe('alert rules and dashboard', () => {
  const promtool = promtoolPath();
  const skipPromtool = !promtool && skippedSuites().has('promtool');
  let database: Database;
  let server: RootsApp;
  let gateway: TestGateway;
  // Photos wait on this gate, so a fifth one finds the analyzer full.
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const analyzerEngine: InferenceEngine = {
    analyze: async () => ({ ok: false, code: 'NO_FACE' }) as never,
    check: async () => {
      await gate;
      return { ok: false, code: 'NO_FACE' } as never;
    },
  };
  const analyzer = buildAnalyzerApp({
    engine: analyzerEngine,
    queue: { concurrency: 4, maxWaiting: 0, perClient: 4 },
    logger: pino({ level: 'silent' }),
    metricsAccess: 'open',
  });
  /** The first bytes of a 64 × 64 PNG: the analyzer's screen lets it in (ADR 164), and this engine decodes nothing. */
  const pngHead = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
    Buffer.from('IHDR', 'latin1'),
    Buffer.from([0, 0, 0, 64, 0, 0, 0, 64, 8, 2, 0, 0, 0, 0, 0, 0, 0]),
  ]);
  const series = new Map<string, Set<string>>();

  beforeAll(async () => {
    database = await openTestDatabase(undefined);
    server = await buildTestApp({ database });
    gateway = await startGateway();
    // A charge and a payment no purchase claimed, so their series carry samples and labels.
    const now = new Date();
    await database.db.insert(charges).values({
      id: '00000000-0000-4000-8000-0000000000c1',
      kind: 'renewal',
      planId: 'roots_3d1_7d2499',
      period: 1,
      attempt: 0,
      idempotencyKey: 'alerting-test',
      amountMinor: 2499,
      currency: 'USD',
      status: 'failed',
      createdAt: now,
      updatedAt: now,
    });
    await database.db.insert(unmatchedPayments).values({
      executionId: 'exe_alerting',
      amountMinor: 100,
      currency: 'USD',
      paidAt: new Date(now.getTime() - 7_200_000),
      status: 'waiting',
      firstSeenAt: now,
      updatedAt: now,
    });
    await database.db.insert(reports).values({
      id: '00000000-0000-4000-8000-0000000000a1',
      subscriptionId: '00000000-0000-4000-8000-0000000000c2',
      email: 'alerting@example.com',
      kind: 'extended',
      status: 'expired',
      deadlineAt: now,
      createdAt: now,
      updatedAt: now,
    });
    // A dispute waiting for our answer, so the dispute series carry samples and labels (ADR 182).
    await database.db.insert(disputes).values({
      disputeId: 'dp_alerting',
      executionId: 'exe_alerting_dispute',
      amountMinor: 2499,
      currency: 'USD',
      reason: 'fraudulent',
      status: 'needs_response',
      evidenceDueBy: new Date(now.getTime() + 86_400_000),
      openedAt: now,
      recordedAt: now,
    });
    const photo = () =>
      analyzer.inject({
        method: 'POST',
        url: ANALYZER_CHECK_PATH,
        headers: { 'content-type': 'application/octet-stream' },
        payload: pngHead,
      });
    const held = Array.from({ length: 4 }, () => photo().then((response) => response.statusCode));
    // Wait until the four are held (light-my-request dispatches them asynchronously).
    while (!/analyzer_queue_depth\{service="analyzer"\} 4/.test((await analyzer.inject({ method: 'GET', url: '/metrics' })).body)) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect((await photo()).statusCode).toBe(503);
    open();
    await Promise.all(held);
    // One request each, so the request histogram has samples with its labels.
    await server.inject({ method: 'GET', url: '/healthz' });
    await fetch(`${gateway.url}/healthz`);
    await analyzer.inject({ method: 'GET', url: '/healthz' });
    for (const page of [
      (await server.inject({ method: 'GET', url: '/metrics' })).body,
      await (await fetch(`${gateway.url}/metrics`)).text(),
      (await analyzer.inject({ method: 'GET', url: '/metrics' })).body,
    ]) {
      for (const [name, labels] of exported(page)) series.set(name, new Set([...(series.get(name) ?? []), ...labels]));
    }
  });
  afterAll(async () => {
    await server?.close();
    await database?.close();
    await gateway?.close();
    await analyzer.close();
  });

  it('reads the new series from the database: charges by kind, the oldest unsettled unclaimed payment', async () => {
    const page = (await server.inject({ method: 'GET', url: '/metrics' })).body;
    expect(page).toMatch(/roots_charges\{kind="renewal",status="failed",service="server"\} 1/);
    const age = Number(/roots_unmatched_payment_age_seconds\{service="server"\} (\S+)/.exec(page)?.[1]);
    expect(age).toBeGreaterThanOrEqual(7_200);
    expect(age).toBeLessThan(7_300);
    // The dispute waiting for an answer, its deadline a day away, this month's rate (no succeeded payment: 0).
    expect(page).toMatch(/roots_disputes\{status="needs_response",service="server"\} 1/);
    const due = Number(/roots_dispute_answer_due_seconds\{service="server"\} (\S+)/.exec(page)?.[1]);
    expect(due).toBeGreaterThan(86_000);
    expect(due).toBeLessThanOrEqual(86_400);
    expect(page).toMatch(/roots_dispute_rate_month\{service="server"\} 0/);
    expect(page).toMatch(/roots_declined_first_payments\{service="server"\} 0/);
    // The gateway's webhook outbox: every status has a series, even at 0.
    const gatewayPage = await (await fetch(`${gateway.url}/metrics`)).text();
    expect(gatewayPage).toMatch(/gateway_webhook_deliveries\{status="failed",service="gateway"\} 0/);
    expect(gatewayPage).toMatch(/gateway_webhook_pending_age_seconds\{service="gateway"\} 0/);
    const analyzerPage = (await analyzer.inject({ method: 'GET', url: '/metrics' })).body;
    expect(analyzerPage).toMatch(/analyzer_queue_capacity\{service="analyzer"\} 4/);
    expect(analyzerPage).toMatch(/analyzer_rejected_total\{reason="full",service="analyzer"\} 1/);
  });

  it('every series a rule or a panel reads is exported, with the labels it matches on', () => {
    const expressions = [
      ...rules.map((rule) => ({ where: rule.alert ?? rule.record ?? '?', expr: rule.expr })),
      ...dashboard.panels.flatMap((panel) => panel.targets.map((target) => ({ where: `panel "${panel.title}"`, expr: target.expr }))),
    ];
    expect(dashboard.panels.length).toBeGreaterThanOrEqual(8);
    const problems: string[] = [];
    for (const { where, expr } of expressions) {
      for (const { metric, labels } of selectors(expr)) {
        if (recorded.has(metric)) continue;
        const known = series.get(metric);
        if (!known) {
          problems.push(`${where}: no process exports ${metric}`);
          continue;
        }
        for (const label of labels) {
          if (!known.has(label) && !TARGET_LABELS.has(label)) problems.push(`${where}: ${metric} has no label ${label}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('every alert has a severity, a summary and a runbook section that exists in docs/operations.md', () => {
    const anchors = new Set(
      readFileSync('docs/operations.md', 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('#'))
        .map((line) =>
          line
            .replace(/^#+\s*/, '')
            .toLowerCase()
            .replace(/[^\w\s-]/g, '')
            .trim()
            .replace(/\s+/g, '-'),
        ),
    );
    const alerts = rules.filter((rule) => rule.alert);
    expect(alerts.map((rule) => rule.alert)).toEqual(
      expect.arrayContaining([
        'RootsUnclaimedPaymentUnsettled',
        'RootsRenewalFailureRateHigh',
        'RootsHigh5xxRate',
        'RootsAnalyzerSaturated',
        'RootsBillingBehind',
        'RootsEmailOutboxBehind',
        'RootsOperatorSecondFactorLocked',
      ]),
    );
    for (const rule of alerts) {
      expect(['page', 'ticket'], rule.alert).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary, rule.alert).toBeTruthy();
      const runbook = rule.annotations?.runbook ?? '';
      expect(runbook.startsWith('docs/operations.md#'), rule.alert).toBe(true);
      expect(anchors.has(runbook.split('#')[1] ?? ''), `${rule.alert}: ${runbook}`).toBe(true);
    }
  });

  if (!promtool && !skipPromtool)
    throw new Error(
      'the alert rules are checked with promtool: run `npm test` (it fetches it), or `apt-get install -y prometheus`, or set PROMTOOL, or SKIP_SUITES=promtool to skip it knowingly.',
    );

  it.skipIf(skipPromtool)(
    'promtool checks the rules and their unit tests pass (each alert fires, and stays quiet below its threshold)',
    () => {
      const run = (args: string[]) => execFileSync(promtool as string, args, { cwd: 'ops/prometheus', encoding: 'utf8' });
      expect(run(['check', 'rules', 'roots-alerts.yml'])).toMatch(/SUCCESS: \d+ rules found/);
      expect(run(['test', 'rules', 'roots-alerts.test.yml'])).toContain('SUCCESS');
    },
  );
});
