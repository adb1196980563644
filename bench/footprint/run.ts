// Memory of what `npm start` runs (issue 16): the built server and gateway on the embedded defaults
// (PGlite in a fresh DATA_DIR), as `npm start` starts them. Prints the RSS of every process it
// started, idle after start, and after one journey (a card purchase, a report from a dev face, its
// completion). The first start creates the databases; `--runs 2` also measures a restart on them.
// Usage: npm run bench:footprint -- [--runs 2] [--json]   (run `npm run build` first)
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { datasetFace } from '../../apps/server/src/modules/reports/report-fixtures';
import { CookieJar, withJar } from '../../apps/server/src/test/cookie-jar';
import { freePort } from '../../apps/server/src/test/gateway-process';
import { http, payWithCard, purchaseBody } from '../../apps/server/src/test/shopper';
import { startServices } from '../../scripts/lib/services.mjs';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '2' }, json: { type: 'boolean', default: false } } });

/** RSS in MB of `pid` and every process below it (from /proc). */
function treeRssMb(pid: number): number {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
    } catch {
      // gone meanwhile
    }
  }
  let total = 0;
  const visit = (id: number) => {
    try {
      const status = readFileSync(`/proc/${id}/status`, 'utf8');
      total += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    } catch {
      return;
    }
    for (const child of children.get(id) ?? []) visit(child);
  };
  visit(pid);
  return Math.round(total);
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 5_000));
const dataDir = mkdtempSync(join(tmpdir(), 'roots-footprint-'));
const results: Array<{ run: number; idle: Record<string, number>; afterJourney: Record<string, number> }> = [];

for (let run = 1; run <= Number(values.runs); run += 1) {
  const [port, gatewayPort] = [await freePort(), await freePort()];
  const services = await startServices(
    {
      PORT: String(port),
      GATEWAY_PORT: String(gatewayPort),
      DATA_DIR: join(dataDir, 'server'),
      GATEWAY_DATA_DIR: join(dataDir, 'gateway'),
      LOG_LEVEL: 'warn',
    },
    { stdio: 'ignore' },
  );
  try {
    await settle();
    const measure = () => {
      const server = treeRssMb(services.server.pid!);
      const gateway = treeRssMb(services.gateway.pid!);
      return { server, gateway, total: server + gateway };
    };
    const idle = measure();
    const send = withJar(new CookieJar(), http);
    const email = `footprint${run}@example.com`;
    const paid = await payWithCard(services.serverUrl, 'roots_3m4800_3m4999');
    const created = await send(`${services.serverUrl}/subs/create-no-user`, { json: purchaseBody(paid, email) });
    if (created.status !== 200) throw new Error(`purchase: ${created.status} ${created.text}`);
    const owner = { email, subscription_id: (created.body as { id: string }).id };
    const report = await send(`${services.serverUrl}/report/create`, { json: { ...owner, image: datasetFace(0).toString('base64') } });
    if (report.status !== 200) throw new Error(`report: ${report.status} ${report.text}`);
    const reportId = (report.body as { report_id: string }).report_id;
    for (;;) {
      const got = await send(`${services.serverUrl}/report/get-report`, { json: { ...owner, report_id: reportId } });
      const status = (got.body as { report?: { status: string } }).report?.status;
      if (status !== 'pending' && status !== 'processing') break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await settle();
    const afterJourney = measure();
    results.push({ run, idle, afterJourney });
    if (!values.json) {
      console.info(`run ${run} (${run === 1 ? 'fresh data dir' : 'restart on existing data'}):`);
      console.info(`  idle           server ${idle.server} MB + gateway ${idle.gateway} MB = ${idle.total} MB`);
      console.info(`  after journey  server ${afterJourney.server} MB + gateway ${afterJourney.gateway} MB = ${afterJourney.total} MB`);
    }
  } finally {
    services.stop();
    await Promise.all(
      [services.server, services.gateway].map(
        (child) => new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null))),
      ),
    );
  }
}
if (values.json)
  console.info(JSON.stringify({ analysisWorkers: process.env.ANALYSIS_WORKERS ?? 'default (available cores)', results }, null, 2));
