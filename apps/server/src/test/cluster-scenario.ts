import { ACCESS_STATUSES } from '@roots/contracts/subscriptions';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../db/database';
import { rowsOf } from '../modules/emails/emails.repository';
import { datasetFace } from '../modules/reports/report-fixtures';
import { startAnalyzerProcess } from './analyzer-process';
import { CookieJar, withJar } from './cookie-jar';
import { freePort, type AppProcess } from './gateway-process';
import { GatewayProxy } from './gateway-proxy';
import { makeWebDist } from './helpers';
import { startLoggedProcess } from './logged-process';
import { RoundRobinProxy } from './round-robin-proxy';
import { http, payWithCard, purchaseBody } from './shopper';
import { moneyAndMailInvariants } from './invariants';
import { startSmtp } from './smtp';

const WEEKLY_TRIAL = 'roots_3d1_7d2499';
const THREE_MONTH = 'roots_3m4800_3m4999';
const ULTIMATE = 'roots_ultimate_pack_4999_otp';

export type ClusterScenarioOptions = {
  /** A PostgreSQL server (any database on it); the scenario creates its own two databases there. */
  postgresUrl: string;
  /** Where every process's log goes (and is left for inspection). */
  workDir: string;
  servers: number;
  analyzers: number;
  /** Simulated buyers, each one journey: purchase, report, sometimes an add-on, sometimes a cancellation. */
  buyers: number;
  /** Journeys running at once. */
  concurrency: number;
  /** Reports timed with one analyzer and then with all of them (0: skip the measurement). */
  throughputReports: number;
  /** Kill -9 one server instance and one analyzer mid-run, then restart them. */
  chaos: boolean;
  /** Per-IP limit of the servers, per minute. */
  rateLimitPerMinute: number;
  log: (message: string) => void;
};

export type RouteFigures = { count: number; p50Ms: number; p99Ms: number };

export type ClusterInvariants = {
  /** Executions the gateway made (customer payments and merchant charges) = succeeded charges recorded by the product. */
  gatewayCharges: number;
  recordedCharges: number;
  doubleCharges: number;
  paymentsWithoutSubscription: number;
  stuckReports: number;
  reportsByStatus: Record<string, number>;
  emailsRecorded: number;
  emailsReceived: number;
  emailsSentTwice: number;
  emailsNotSent: number;
  rateLimit: { perIp: { allowed: number; limit: number; limited: number }; perEmail: number[]; faceCheck: number[] };
};

export type ClusterReport = {
  requests: number;
  errorsByStatus: Record<string, number>;
  routes: Record<string, RouteFigures>;
  /** The same routes as the servers' /metrics saw them (histogram buckets: upper bounds; a killed instance's counts are lost). */
  metricsRoutes: Record<string, RouteFigures>;
  reportsPerSecond: { oneAnalyzer: number; allAnalyzers: number } | null;
  journeys: { completed: number; failed: number };
  chaos: { killedServer: boolean; killedAnalyzer: boolean; restarted: boolean };
  invariants: ClusterInvariants;
};

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(250);
  }
  throw new Error(`cluster scenario: ${what} not reached in ${timeoutMs} ms`);
}

/** Runs `work(i)` for i in [0, total) with at most `concurrency` at once. */
async function inPool(total: number, concurrency: number, work: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, total) }, async () => {
      while (next < total) await work(next++);
    }),
  );
}

/** Merges the `http_request_duration_seconds` histograms of several /metrics pages by route. */
export function routesFromMetrics(pages: string[]): Record<string, RouteFigures> {
  const buckets = new Map<string, Map<number, number>>();
  for (const page of pages) {
    for (const match of page.matchAll(/^http_request_duration_seconds_bucket\{([^}]*)\} (\d+)/gm)) {
      const labels = Object.fromEntries([...match[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((label) => [label[1], label[2]]));
      const key = `${labels.method} ${labels.route}`;
      const le = labels.le === '+Inf' ? Number.POSITIVE_INFINITY : Number(labels.le);
      const byLe = buckets.get(key) ?? new Map<number, number>();
      byLe.set(le, (byLe.get(le) ?? 0) + Number(match[2]));
      buckets.set(key, byLe);
    }
  }
  const figures: Record<string, RouteFigures> = {};
  for (const [key, byLe] of buckets) {
    const sorted = [...byLe].sort((a, b) => a[0] - b[0]);
    const count = sorted.at(-1)?.[1] ?? 0;
    if (count === 0) continue;
    const at = (p: number) => (sorted.find(([, cumulative]) => cumulative >= (p / 100) * count)?.[0] ?? Number.POSITIVE_INFINITY) * 1000;
    figures[key] = { count, p50Ms: at(50), p99Ms: at(99) };
  }
  return figures;
}

/**
 * The multi-instance scenario of issue 16 (ADR 119): PostgreSQL, the gateway, `servers` instances
 * behind a round-robin proxy, `analyzers` analyzer services, an SMTP sink; real buyers' traffic with
 * sandbox cards and dev-set faces, billing cycles by moving due dates into the past, optional kill -9
 * of one server and one analyzer; then the invariants, read from the database, the gateway traffic
 * and the mail received.
 */
export async function runClusterScenario(options: ClusterScenarioOptions): Promise<ClusterReport> {
  const { log } = options;
  mkdirSync(options.workDir, { recursive: true });
  const suffix = `${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = await openDatabase({ url: options.postgresUrl, dataDir: '' });
  const scopedUrl = (name: string) => Object.assign(new URL(options.postgresUrl), { pathname: `/${name}` }).toString();
  await admin.db.execute(sql.raw(`create database roots_${suffix}`));
  await admin.db.execute(sql.raw(`create database gateway_${suffix}`));
  await admin.close();
  const serverDatabaseUrl = scopedUrl(`roots_${suffix}`);

  const cleanups: Array<() => Promise<void>> = [];
  type RouteStats = { latencies: number[]; statuses: Map<number, number> };
  const stats = new Map<string, RouteStats>();
  const record = (route: string, status: number, ms: number) => {
    const entry: RouteStats = stats.get(route) ?? { latencies: [], statuses: new Map<number, number>() };
    entry.latencies.push(ms);
    entry.statuses.set(status, (entry.statuses.get(status) ?? 0) + 1);
    stats.set(route, entry);
  };

  let database: Database | undefined;
  try {
    const smtp = await startSmtp();
    cleanups.push(() => smtp.stop());
    const gatewayPort = await freePort();
    const gateway = await startLoggedProcess(
      'apps/gateway/src/server.ts',
      {
        GATEWAY_HOST: '127.0.0.1',
        GATEWAY_PORT: String(gatewayPort),
        GATEWAY_DATABASE_URL: scopedUrl(`gateway_${suffix}`),
        GATEWAY_RATE_LIMIT_PER_MINUTE: '1000000',
        LOG_LEVEL: 'info',
      },
      join(options.workDir, 'gateway.log'),
      `http://127.0.0.1:${gatewayPort}/readyz`,
    );
    cleanups.push(() => gateway.stop());
    const gatewayProxy = new GatewayProxy(gateway.url);
    await gatewayProxy.start();
    cleanups.push(() => gatewayProxy.stop());

    const analyzerPorts = await Promise.all(Array.from({ length: options.analyzers }, () => freePort()));
    const analyzerLog = (index: number) => join(options.workDir, `analyzer-${index}.log`);
    const startAnalyzer = (index: number) => startAnalyzerProcess(analyzerLog(index), { LOG_LEVEL: 'info' }, analyzerPorts[index]);
    const analyzers: AppProcess[] = [];
    for (let index = 0; index < options.analyzers; index += 1) analyzers.push(await startAnalyzer(index));
    cleanups.push(async () => void (await Promise.all(analyzers.map((analyzer) => analyzer.stop()))));

    const serverPorts = await Promise.all(Array.from({ length: options.servers }, () => freePort()));
    const balancer = new RoundRobinProxy(serverPorts.map((port) => `http://127.0.0.1:${port}`));
    const base = await balancer.start();
    cleanups.push(() => balancer.stop());
    const webDist = makeWebDist();
    const startServer = (index: number) =>
      startLoggedProcess(
        'apps/server/src/server.ts',
        {
          HOST: '127.0.0.1',
          PORT: String(serverPorts[index]),
          PUBLIC_URL: base,
          DATABASE_URL: serverDatabaseUrl,
          GATEWAY_URL: gatewayProxy.url,
          WEB_DIST_DIR: webDist,
          SMTP_URL: smtp.url,
          TRUST_PROXY: 'true',
          BILLING_TICK_MS: '500',
          RATE_LIMIT_PER_MINUTE: String(options.rateLimitPerMinute),
          EMAIL_RATE_LIMIT_PER_HOUR: '40',
          FACE_CHECK_RATE_LIMIT_PER_MINUTE: '5',
          GATEWAY_CLIENT_BUDGET_PER_MINUTE: '100000',
          GATEWAY_CLIENT_PURCHASE_BUDGET_PER_MINUTE: '100000',
          SIGN_IN_CODES_PER_IP_PER_HOUR: '100000',
          SIGN_IN_CODE_RESEND_SECONDS: '0',
          SIGN_IN_CODE_RESENDS_PER_DAY: '100000',
          SIGN_IN_GUESSES_PER_EMAIL_PER_MINUTE: '100000',
          SIGN_IN_GUESSES_PER_IP_PER_HOUR: '100000',
          ANALYSIS_URLS: analyzers.map((analyzer) => analyzer.url).join(','),
          REPORT_PROCESSING_TIMEOUT_MS: '20000',
          REPORT_SWEEP_INTERVAL_MS: '1000',
          LOG_LEVEL: 'info',
        },
        join(options.workDir, `server-${index}.log`),
        `http://127.0.0.1:${serverPorts[index]}/readyz`,
      );
    // The first instance migrates the database; the others start on the migrated schema together.
    const servers: AppProcess[] = [await startServer(0)];
    servers.push(...(await Promise.all(Array.from({ length: options.servers - 1 }, (_, index) => startServer(index + 1)))));
    cleanups.push(async () => void (await Promise.all(servers.map((server) => server.stop()))));
    database = await openDatabase({ url: serverDatabaseUrl, dataDir: '' });
    const db = database.db;
    const count = async (query: ReturnType<typeof sql>) => Number(rowsOf<{ n: number | string }>(await db.execute(query))[0]?.n ?? 0);
    log(`cluster up: ${options.servers} servers behind ${base}, ${options.analyzers} analyzers, gateway ${gateway.url}`);

    // ---- journeys ------------------------------------------------------------------------------------
    const paidExecutions: string[] = [];
    const chaos = { killedServer: false, killedAnalyzer: false, restarted: false };
    let chaosDone: Promise<void> = Promise.resolve();
    const journeys = { completed: 0, failed: 0 };
    const buyersWithReports: Array<{ email: string; subscription_id: string; send: ReturnType<typeof clientFor> }> = [];

    function clientFor(address: string) {
      const jarred = withJar(new CookieJar(), http);
      return async (route: string, path: string, init: Parameters<typeof jarred>[1] = {}) => {
        const started = performance.now();
        const answer = await jarred(`${base}${path}`, { ...init, headers: { 'x-forwarded-for': address, ...init.headers } });
        record(route, answer.status, performance.now() - started);
        return answer;
      };
    }

    const journey = async (index: number) => {
      if (options.chaos && index === Math.floor(options.buyers / 2)) {
        chaosDone = (async () => {
          const victim = servers[options.servers - 1]!;
          victim.child.kill('SIGKILL');
          chaos.killedServer = (await victim.exited) === 137;
          const analyzer = analyzers[0]!;
          analyzer.child.kill('SIGKILL');
          chaos.killedAnalyzer = (await analyzer.exited) === 137;
          log('chaos: killed -9 one server and one analyzer');
          await sleep(3_000);
          servers[options.servers - 1] = await startServer(options.servers - 1);
          analyzers[0] = await startAnalyzer(0);
          chaos.restarted = true;
          log('chaos: both restarted');
        })();
      }
      const address = `10.${(index >> 8) & 255}.${index & 255}.7`;
      const send = clientFor(address);
      const email = `buyer${index}.${suffix}@example.com`;
      const plan = index % 3 === 1 ? THREE_MONTH : WEEKLY_TRIAL;
      try {
        const started = performance.now();
        const paid = await payWithCard(base, plan, undefined, { 'x-forwarded-for': address });
        record('GET /init/session (+ gateway pay)', 200, performance.now() - started);
        paidExecutions.push(paid.execution.id);
        let created = await send('POST /subs/create-no-user', '/subs/create-no-user', { json: purchaseBody(paid, email) });
        // Like the browser, retry when the instance that took the request went away.
        for (let retry = 0; retry < 3 && created.status >= 500; retry += 1) {
          await sleep(500);
          created = await send('POST /subs/create-no-user', '/subs/create-no-user', { json: purchaseBody(paid, email) });
        }
        if (created.status !== 200) throw new Error(`create-no-user ${created.status}`);
        const owner = { email, subscription_id: (created.body as { id: string }).id };

        const report = await send('POST /report/create', '/report/create', {
          json: { ...owner, image: datasetFace(index % 6).toString('base64') },
        });
        if (report.status === 200) {
          const reportId = (report.body as { report_id: string }).report_id;
          // A browser polls about once a second; 60 polls outlast the processing timeout.
          for (let poll = 0; poll < 60; poll += 1) {
            const got = await send('POST /report/get-report', '/report/get-report', { json: { ...owner, report_id: reportId } });
            const status = (got.body as { report?: { status: string } }).report?.status;
            if (got.status === 200 && status !== 'pending' && status !== 'processing') break;
            await sleep(1_000);
          }
        }
        // Canceled purchases lose report access: the throughput bursts use the others.
        if (index % 5 !== 2) buyersWithReports.push({ ...owner, send });
        if (index % 4 === 0) {
          const addOn = { plan_id: ULTIMATE, email, subscription_id: owner.subscription_id, attribution: { project: 'roots' } };
          let bought = await send('POST /subs/create-no-user (add-on)', '/subs/create-no-user', { json: addOn });
          for (let retry = 0; retry < 3 && bought.status >= 500; retry += 1) {
            await sleep(500);
            bought = await send('POST /subs/create-no-user (add-on)', '/subs/create-no-user', { json: addOn });
          }
        }
        if (index % 5 === 2) {
          const receipt = await smtp.waitFor((mail) => mail.to.includes(email) && /receipt/i.test(mail.subject), 30_000);
          const link = /https?:\/\/\S+(\/api\/cancel-subscription\/[\w.-]+)/.exec(receipt.text)?.[1];
          if (!link) throw new Error('no cancel link in the receipt');
          await send('POST /api/cancel-subscription/:content', link, { method: 'POST', json: {} });
        }
        journeys.completed += 1;
      } catch (error) {
        journeys.failed += 1;
        log(`journey ${index} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    };
    await inPool(options.buyers, options.concurrency, journey);
    await chaosDone;
    log(`journeys: ${journeys.completed} completed, ${journeys.failed} failed`);

    // ---- limits across instances --------------------------------------------------------------------
    const probe = clientFor('10.255.255.1');
    const perIpStatuses: number[] = [];
    for (let index = 0; index < options.rateLimitPerMinute + 5; index += 1) {
      perIpStatuses.push((await probe('GET /remote-addr', '/remote-addr')).status);
    }
    const perEmail: number[] = [];
    for (let index = 0; index < 42; index += 1) {
      const answer = await clientFor(`10.254.${index}.1`)(
        'POST /rec/subscriptions/:emailOrId',
        `/rec/subscriptions/probe.${suffix}%40example.com`,
        {
          method: 'POST',
          json: {},
        },
      );
      perEmail.push(answer.status);
    }
    const faceProbe = clientFor('10.255.255.2');
    const faceCheck: number[] = [];
    for (let index = 0; index < 8; index += 1) {
      faceCheck.push((await faceProbe('POST /api/face-check', '/api/face-check', { json: { image: 'x' } })).status);
    }

    // ---- billing cycles: time moves to the next due date twice ------------------------------------------
    for (let cycle = 0; cycle < 2; cycle += 1) {
      await db.execute(sql`update subscriptions set due_at = now() - interval '1 second' where due_at is not null`);
      await until(
        'billing backlog drained',
        async () =>
          (await count(sql`select count(*) as n from subscriptions where due_at is not null and due_at <= now()
            and status in ${[...ACCESS_STATUSES]}`)) === 0 &&
          (await count(sql`select count(*) as n from charges where status = 'pending'`)) === 0,
        90_000,
      );
      log(`billing cycle ${cycle + 1} done`);
    }

    // ---- reports per second with one analyzer, then all --------------------------------------------
    let reportsPerSecond: ClusterReport['reportsPerSecond'] = null;
    if (options.throughputReports > 0 && buyersWithReports.length > 0) {
      const burst = async (label: string) => {
        const started = performance.now();
        const ids = await Promise.all(
          Array.from({ length: options.throughputReports }, async (_, index) => {
            const owner = buyersWithReports[index % buyersWithReports.length]!;
            const answer = await owner.send('POST /report/create', '/report/create', {
              json: { email: owner.email, subscription_id: owner.subscription_id, image: datasetFace(index % 6).toString('base64') },
            });
            return answer.status === 200 ? (answer.body as { report_id: string }).report_id : undefined;
          }),
        );
        const created = ids.filter((id): id is string => id !== undefined);
        await until(
          `${label} reports finished`,
          async () =>
            (await count(sql`select count(*) as n from reports where status in ('pending', 'processing')
              and id in (${sql.join(
                created.map((id) => sql`${id}`),
                sql`, `,
              )})`)) === 0,
          180_000,
        );
        return created.length / ((performance.now() - started) / 1000);
      };
      const spare = analyzers.slice(1);
      await Promise.all(spare.map((analyzer) => analyzer.stop()));
      const oneAnalyzer = await burst('one analyzer');
      for (let index = 1; index < options.analyzers; index += 1) analyzers[index] = await startAnalyzer(index);
      const allAnalyzers = await burst('all analyzers');
      reportsPerSecond = { oneAnalyzer, allAnalyzers };
      log(`reports/s: ${oneAnalyzer.toFixed(2)} with 1 analyzer, ${allAnalyzers.toFixed(2)} with ${options.analyzers}`);
    }

    // ---- settle: stuck reports expire, the outbox empties, interrupted purchases reconcile ----------
    // Purchases interrupted by the kill are left to their own request for a while; time moves past that.
    await db.execute(sql`update purchase_intents set created_at = created_at - interval '10 minutes'`);
    await until(
      'no open reports',
      async () => (await count(sql`select count(*) as n from reports where status in ('pending', 'processing')`)) === 0,
      60_000,
    );
    await until('outbox empty', async () => (await count(sql`select count(*) as n from emails where status = 'pending'`)) === 0, 60_000);
    await sleep(2_000); // a few more ticks on every instance: reconciliation and any late email

    // ---- invariants -------------------------------------------------------------------------------------
    const money = await moneyAndMailInvariants(db, { gatewayProxy, paidExecutions, mails: smtp.mails });
    const reportsByStatus = Object.fromEntries(
      rowsOf<{ status: string; n: number | string }>(await db.execute(sql`select status, count(*) as n from reports group by status`)).map(
        (row) => [row.status, Number(row.n)],
      ),
    );
    const invariants: ClusterInvariants = {
      ...money,
      stuckReports: (reportsByStatus.pending ?? 0) + (reportsByStatus.processing ?? 0),
      reportsByStatus,
      rateLimit: {
        perIp: {
          allowed: perIpStatuses.filter((status) => status !== 429).length,
          limit: options.rateLimitPerMinute,
          limited: perIpStatuses.filter((status) => status === 429).length,
        },
        perEmail,
        faceCheck,
      },
    };

    // ---- figures --------------------------------------------------------------------------------------
    const routes: Record<string, RouteFigures> = {};
    const errorsByStatus: Record<string, number> = {};
    let requests = 0;
    for (const [route, entry] of stats) {
      const sorted = [...entry.latencies].sort((a, b) => a - b);
      routes[route] = { count: sorted.length, p50Ms: Math.round(percentile(sorted, 50)), p99Ms: Math.round(percentile(sorted, 99)) };
      requests += sorted.length;
      for (const [status, n] of entry.statuses) if (status >= 400) errorsByStatus[status] = (errorsByStatus[status] ?? 0) + n;
    }
    const pages = await Promise.all(servers.map((server) => fetch(`${server.url}/metrics`).then((answer) => answer.text())));
    return {
      requests,
      errorsByStatus,
      routes,
      metricsRoutes: routesFromMetrics(pages),
      reportsPerSecond,
      journeys,
      chaos,
      invariants,
    };
  } finally {
    await database?.close();
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }
}
