import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { buildImages, podman, podmanEnv } from '../../../scripts/lib/images.mjs';
import { openDatabase, type Database } from './db/database';
import { rowsOf } from './modules/emails/emails.repository';
import { datasetFace } from './modules/reports/report-fixtures';
import { GatewayProxy } from './test/gateway-proxy';
import { moneyAndMailInvariants } from './test/invariants';
import { loadDescription, playPods } from './test/kube-description';
import { CookieJar, http, payWithCard, purchaseBody } from './test/shopper';
import { startSmtp } from './test/smtp';

// The product as the Kubernetes description ships it (ops/k8s, issue 37, ADR 178), played with
// `podman kube play` from the images `npm run images` builds: PostgreSQL, two servers, the gateway
// and an analyzer. Through their published ports: readiness, a purchase, a report made by the
// analyzer, one server killed mid-purchase and the purchase finished on the other, then the
// invariants of several instances. Everything the test made is removed afterwards. `npm test` runs
// it as its own step (scripts/test.mjs); alone: `npx vitest run -c apps/server/kube-play.vitest.config.ts`.

const OFFSET = Number(process.env.E2E_PORT_OFFSET ?? 0);
const BASE = 18_000 + OFFSET;
const PORTS = { postgres: BASE, gateway: BASE + 1, servers: [BASE + 2, BASE + 3], analyzer: BASE + 4 };
const VERSION = (JSON.parse(readFileSync(join(import.meta.dirname, '../../../package.json'), 'utf8')) as { version: string }).version;
const RUN = `${Date.now().toString(36)}${process.pid.toString(36)}`;
const PREFIX = 'roots-test-';
const PUBLIC_URL = 'https://shop.roots.test';
const WEEKLY_TRIAL = 'roots_3d1_7d2499';
const local = (port: number) => `http://127.0.0.1:${port}`;
const secret = (bytes = 36) => randomBytes(bytes).toString('base64url');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const phases: Array<[string, number]> = [];
async function phase<T>(name: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    phases.push([name, seconds]);
    console.info(`[kube] ${name}: ${seconds} s`);
  }
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await sleep(500);
  }
  throw new Error(`${what} not reached in ${timeoutMs / 1000} s`);
}
const answers = (url: string) => async () => (await fetch(url, { signal: AbortSignal.timeout(3_000) })).ok;

const workDir = mkdtempSync(join(tmpdir(), 'roots-kube-play-'));
const images: string[] = [];
const played: Array<{ name: string; file: string; volumes: string[] }> = [];
let smtp: Awaited<ReturnType<typeof startSmtp>> | undefined;
let gatewayProxy: GatewayProxy | undefined;
let database: Database | undefined;
let metricsToken = '';

/** Plays one derived pod; remembers it (and its volumes) for the removal. */
async function play(pod: ReturnType<typeof playPods>[number]['pod']) {
  const file = join(workDir, `${pod.metadata.name}.yaml`);
  writeFileSync(file, stringify(pod));
  const volumes = ((pod.spec as { volumes?: Array<{ persistentVolumeClaim: { claimName: string } }> }).volumes ?? []).map(
    (volume) => volume.persistentVolumeClaim.claimName,
  );
  played.push({ name: pod.metadata.name, file, volumes });
  await podman(['kube', 'play', '--network=host', '--quiet', file], { quiet: true });
}

const podExists = (name: string) => spawnSync('podman', ['pod', 'exists', name], { env: podmanEnv() }).status === 0;

/** RSS in MB of `pid` and every process below it (a container's processes, seen from the host). */
function treeRssMb(pid: number): number {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const visit = (id: number): number => {
    let kb: number;
    try {
      kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${id}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      return 0;
    }
    return kb + (children.get(id) ?? []).reduce((sum, child) => sum + visit(child), 0);
  };
  return Math.round(visit(pid) / 1024);
}

/** The last lines of every container's log, when something failed. */
function containerLogs(): string {
  return played
    .map(({ name }) => {
      try {
        const names = execFileSync('podman', ['ps', '-a', '--filter', `pod=${name}`, '--format', '{{.Names}}'], { env: podmanEnv() })
          .toString()
          .split('\n')
          .filter((container) => container && !container.endsWith('-infra'));
        return names
          .map((container) => {
            const logs = execFileSync('podman', ['logs', '--tail', '25', container], { env: podmanEnv(), stdio: 'pipe' }).toString();
            return `--- ${container}\n${logs}`;
          })
          .join('\n');
      } catch (error) {
        return `--- ${name}: ${String(error)}`;
      }
    })
    .join('\n');
}

describe('the Kubernetes description played with podman', () => {
  beforeAll(async () => {
    const built = await phase('images (npm run images)', () => buildImages({ prefix: 'roots-test', tag: RUN, log: () => undefined }));
    for (const [name, entry] of Object.entries(built)) {
      if (!entry.ref.includes('roots-cache-')) images.push(entry.ref);
      console.info(`[kube]   ${name}: ${Math.round(entry.bytes / 1e6)} MB, ${entry.seconds} s${entry.cached ? ' (cached)' : ''}`);
    }
    smtp = await startSmtp();
    gatewayProxy = new GatewayProxy(local(PORTS.gateway));
    await gatewayProxy.start();
    metricsToken = secret();
    const password = secret(18);
    const databaseUrl = (name: string) => `postgres://postgres:${password}@127.0.0.1:${PORTS.postgres}/${name}`;
    const pods = playPods(loadDescription(), {
      prefix: PREFIX,
      ports: {
        'roots-postgres': [PORTS.postgres],
        'roots-gateway': [PORTS.gateway],
        'roots-server': PORTS.servers,
        'roots-analyzer': [PORTS.analyzer],
      },
      portVariables: {
        'roots-postgres': 'PGPORT',
        'roots-gateway': 'GATEWAY_PORT',
        'roots-server': 'PORT',
        'roots-analyzer': 'ANALYZER_PORT',
      },
      images: Object.fromEntries(
        ['server', 'gateway', 'analyzer', 'postgres'].map((name) => [`localhost/roots-${name}:${VERSION}`, built[name]!.ref]),
      ),
      secrets: {
        'roots-shared': {
          ANALYZER_SECRET: secret(),
          METRICS_TOKEN: metricsToken,
          GATEWAY_MERCHANT_SECRET: `sk_${secret()}`,
          GATEWAY_WEBHOOK_SECRET: `whsec_${secret()}`,
        },
        'roots-server': { APP_SECRET: secret(), AUTH_SECRET: secret(), DATABASE_URL: databaseUrl('roots'), SMTP_URL: smtp.url },
        'roots-gateway': {
          GATEWAY_VAULT_KEY: randomBytes(32).toString('base64'),
          GATEWAY_JWT_SECRET: secret(),
          GATEWAY_DATABASE_URL: databaseUrl('roots_gateway'),
        },
        'roots-postgres': { POSTGRES_PASSWORD: password },
      },
      // What a cluster gives by its Services and ingress, given here by this machine's addresses.
      overrides: {
        'roots-gateway': {
          GATEWAY_HOST: '127.0.0.1',
          GATEWAY_PUBLIC_URL: local(PORTS.gateway),
          GATEWAY_MERCHANT_ORIGINS: PUBLIC_URL,
          GATEWAY_WEBHOOK_URLS: `${local(PORTS.servers[1]!)}/api/gateway/webhooks`,
        },
        'roots-server': {
          HOST: '127.0.0.1',
          PUBLIC_URL,
          GATEWAY_URL: gatewayProxy.url,
          ANALYSIS_URLS: local(PORTS.analyzer),
          LEGAL_OPERATOR_NAME: 'Roots Test Ltd',
          LEGAL_OPERATOR_ADDRESS: '1 Test Street, Berlin',
          LEGAL_CONTACT_EMAIL: 'support@roots.test',
          // Emails leave the outbox within a second (the description ticks every 30 s).
          BILLING_TICK_MS: '1000',
        },
        'roots-analyzer': { ANALYZER_HOST: '127.0.0.1' },
      },
    });
    const podsOf = (workload: string) => pods.filter((pod) => pod.workload === workload).map((pod) => pod.pod);
    try {
      await phase('PostgreSQL ready', async () => {
        for (const pod of podsOf('roots-postgres')) await play(pod);
        await until(
          'PostgreSQL accepting connections',
          async () => {
            // A query, not just a pool: the first start creates the databases with TCP closed, then opens it.
            const probe = await openDatabase({ url: databaseUrl('roots_gateway'), dataDir: '' });
            try {
              await probe.db.execute(sql`select 1`);
              return true;
            } finally {
              await probe.close();
            }
          },
          60_000,
        );
      });
      await phase('gateway, analyzer and two servers ready', async () => {
        for (const pod of [...podsOf('roots-gateway'), ...podsOf('roots-analyzer')]) await play(pod);
        // Each server pod migrates in its init container before its server starts.
        for (const pod of podsOf('roots-server')) await play(pod);
        await Promise.all(
          [PORTS.gateway, ...PORTS.servers, PORTS.analyzer].map((port) =>
            until(`${local(port)}/readyz`, answers(`${local(port)}/readyz`), 180_000),
          ),
        );
      });
      database = await openDatabase({ url: databaseUrl('roots'), dataDir: '' });
    } catch (error) {
      console.error(`[kube] the stack did not come up:\n${containerLogs()}`);
      throw error;
    }
  }, 1_500_000);

  afterAll(async () => {
    await phase('removal of the pods and volumes', async () => {
      await database?.close();
      // What `podman kube down` does, without waiting out each container's stop timeout; then their volumes.
      await Promise.all(
        played.map(async (pod) => {
          // A container still stopping can refuse the first removal: again, with the default stop timeout.
          for (let attempt = 0; attempt < 3 && podExists(pod.name); attempt += 1) {
            await podman(['pod', 'rm', '--force', '--time', attempt === 0 ? '1' : '10', pod.name], { quiet: true }).catch(() =>
              sleep(1_000),
            );
          }
          expect(podExists(pod.name), `pod ${pod.name} removed`).toBe(false);
          if (pod.volumes.length) await podman(['volume', 'rm', '--force', ...pod.volumes], { quiet: true }).catch(() => undefined);
        }),
      );
      await gatewayProxy?.stop();
      await smtp?.stop();
      rmSync(workDir, { recursive: true, force: true });
    });
    // The images this run tagged (an image with another tag, the cached PostgreSQL, is only untagged).
    await phase('removal of the images', () => podman(['rmi', ...images], { quiet: true }).catch(() => ''));
    console.info(`[kube] phases: ${phases.map(([name, seconds]) => `${name} ${seconds} s`).join(', ')}`);
  }, 300_000);

  it(
    'serves a purchase, a report by the analyzer, and a purchase finished on the survivor of a killed server',
    { timeout: 600_000 },
    async ({ onTestFailed }) => {
      onTestFailed(() => console.error(`[kube] containers' last lines:\n${containerLogs()}`));
      const [first, second] = PORTS.servers.map(local) as [string, string];
      const db = database!.db;
      const paidExecutions: string[] = [];

      // Readiness and liveness through the published ports.
      for (const port of [PORTS.gateway, ...PORTS.servers, PORTS.analyzer]) {
        expect((await fetch(`${local(port)}/readyz`)).status, `${port} /readyz`).toBe(200);
        expect((await fetch(`${local(port)}/healthz`)).status, `${port} /healthz`).toBe(200);
      }

      // A purchase on the first server, as the shopper's browser makes it.
      const buyer = { jar: new CookieJar(), email: `kube.${RUN}@example.com`, headers: { 'x-forwarded-for': '10.60.0.1' } };
      const paid = await phase('purchase', () => payWithCard(first, WEEKLY_TRIAL, undefined, buyer.headers));
      paidExecutions.push(paid.execution.id);
      const created = await http<{ id: string }>(`${first}/subs/create-no-user`, {
        json: purchaseBody(paid, buyer.email),
        headers: buyer.headers,
        jar: buyer.jar,
      });
      expect(created.status, created.text).toBe(200);
      const owner = { email: buyer.email, subscription_id: created.body.id };

      // A report from a face, analysed by the analyzer container (its own metrics count the inference).
      await phase('report through the analyzer', async () => {
        const report = await http<{ report_id: string }>(`${first}/report/create`, {
          json: { ...owner, image: datasetFace(0).toString('base64') },
          headers: buyer.headers,
          jar: buyer.jar,
        });
        expect(report.status, report.text).toBe(200);
        let status = 'pending';
        for (let poll = 0; poll < 120 && (status === 'pending' || status === 'processing'); poll += 1) {
          await sleep(1_000);
          const got = await http<{ report?: { status: string } }>(`${second}/report/get-report`, {
            json: { ...owner, report_id: report.body.report_id },
            headers: buyer.headers,
            jar: buyer.jar,
          });
          status = got.body.report?.status ?? `http ${got.status}`;
        }
        expect(status).toBe('completed');
        const metrics = await fetch(`${local(PORTS.analyzer)}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } }).then(
          (answer) => answer.text(),
        );
        expect(Number(/^analyzer_inference_seconds_count(?:\{[^}]*\})? (\d+)/m.exec(metrics)?.[1] ?? 0)).toBeGreaterThanOrEqual(1);
      });

      // What each container holds after a purchase and a report (the description's requests and limits: ADR 178).
      const containers = (await podman(['ps', '--format', '{{.Names}}', '--filter', `name=^${PREFIX}`], { capture: true }))
        .split('\n')
        .filter((name) => name && !name.endsWith('-infra'));
      const memory = await Promise.all(
        containers.map(async (name) => {
          const pid = Number((await podman(['inspect', '--format', '{{.State.Pid}}', name], { capture: true })).trim());
          return `${name} ${treeRssMb(pid)} MB`;
        }),
      );
      console.info(`[kube] memory (RSS):\n${memory.join('\n')}`);

      // A second buyer pays through the first server; it is killed -9 before the purchase is recorded,
      // and the purchase is finished through the survivor.
      await phase('kill one server, purchase through the survivor', async () => {
        const next = { jar: new CookieJar(), email: `kube2.${RUN}@example.com`, headers: { 'x-forwarded-for': '10.60.0.2' } };
        const paidAgain = await payWithCard(first, WEEKLY_TRIAL, undefined, next.headers);
        paidExecutions.push(paidAgain.execution.id);
        await podman(['kill', '--signal', 'KILL', `${PREFIX}server-0-server`], { quiet: true });
        await until('the killed server gone', async () => !(await answers(`${first}/healthz`)().catch(() => false)), 30_000);
        const finished = await http<{ id: string }>(`${second}/subs/create-no-user`, {
          json: purchaseBody(paidAgain, next.email),
          headers: next.headers,
          jar: next.jar,
        });
        expect(finished.status, finished.text).toBe(200);
        expect((await fetch(`${second}/readyz`)).status).toBe(200);
      });

      // Settled: the survivor sends every recorded email; then the invariants.
      await phase('invariants', async () => {
        const pending = async () =>
          Number(rowsOf<{ n: string }>(await db.execute(sql`select count(*) as n from emails where status = 'pending'`))[0]?.n ?? 0);
        await until('outbox empty', async () => (await pending()) === 0, 90_000);
        await sleep(2_000);
        const invariants = await moneyAndMailInvariants(db, { gatewayProxy: gatewayProxy!, paidExecutions, mails: smtp!.mails });
        console.info(`[kube] invariants ${JSON.stringify(invariants)}`);
        expect(invariants.gatewayCharges).toBe(2);
        expect(invariants.recordedCharges).toBe(invariants.gatewayCharges);
        expect(invariants.doubleCharges).toBe(0);
        expect(invariants.paymentsWithoutSubscription).toBe(0);
        expect(invariants.emailsReceived).toBeGreaterThanOrEqual(2);
        expect(invariants.emailsSentTwice).toBe(0);
        expect(invariants.emailsNotSent).toBe(0);
      });
    },
  );
});
