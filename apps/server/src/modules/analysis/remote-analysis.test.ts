import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { ANALYZER_ANALYZE_PATH } from '@roots/contracts/analyzer';
import { reportGetResponseSchema, type Report, type ReportCreateResponse } from '@roots/contracts/reports';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, serverLoggerOptions, type RootsApp } from '../../app';
import { loadConfig } from '../../config/env';
import { openDatabase, type Database } from '../../db/database';
import { startAnalyzerProcess } from '../../test/analyzer-process';
import { CookieJar, withJar } from '../../test/cookie-jar';
import { startGatewayProcess, type AppProcess, type GatewayProcess } from '../../test/gateway-process';
import { makeWebDist, RELAXED_CLIENT_LIMITS } from '../../test/helpers';
import { http, payWithCard, purchaseBody } from '../../test/shopper';
import { severalFacesAnswerSchema } from '@roots/contracts/face-check';
import { datasetFace, groupOfThree } from '../reports/report-fixtures';

const WEEKLY = 'roots_3d1_7d2499';

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

// Two analyzer processes (one worker each) behind ANALYSIS_URLS; the server runs in this process on
// an on-disk PGlite so that its data directory and its logs can be searched for the photos afterwards.
describe('analysis on analyzer services (ANALYSIS_URLS)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'roots-analyzers-'));
  const dataDir = join(dir, 'server-data');
  const serverLog: string[] = [];
  const uploaded: Buffer[] = [];
  let gateway: GatewayProcess;
  let first: AppProcess;
  let second: AppProcess;
  let database: Database;
  let app: RootsApp;
  let base: string;
  const ANALYZER_SECRET = 'analyzer_5Tq9Lm2Xv7Rb4Nk8Wc1Zp6Hs3Jd0Fg';

  beforeAll(async () => {
    [gateway, first, second] = await Promise.all([
      startGatewayProcess(),
      // Both answer only servers holding the shared secret (issue 22): every analysis below proves the server sends it.
      startAnalyzerProcess(join(dir, 'analyzer-1.log'), { ANALYZER_SECRET }),
      // The second one holds one photo at a time: a second concurrent one gets 503 + retry-after.
      startAnalyzerProcess(join(dir, 'analyzer-2.log'), { ANALYZER_MAX_QUEUE: '0', ANALYZER_SECRET }),
    ]);
    database = await openDatabase({ dataDir });
    await database.migrate();
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'debug',
      WEB_DIST_DIR: makeWebDist(),
      GATEWAY_URL: gateway.url,
      DATA_DIR: dataDir,
      RATE_LIMIT_PER_MINUTE: '100000',
      EMAIL_RATE_LIMIT_PER_HOUR: '100000',
      ANALYSIS_URLS: `${first.url},${second.url}`,
      ANALYZER_SECRET,
      ...RELAXED_CLIENT_LIMITS,
      ANALYSIS_TIMEOUT_MS: '60000',
      ANALYSIS_DEADLINE_MS: '120000',
    });
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        serverLog.push(chunk.toString('utf8'));
        done();
      },
    });
    app = await buildApp({ config, database, loggerInstance: pino(serverLoggerOptions('debug'), sink) });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
    config.publicUrl = base;
  }, 240_000);
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await Promise.all([first?.stop(), second?.stop(), gateway?.stop()]);
  });

  /** A buyer with its own cookies, as the browser keeps them. */
  const buyer = async (email: string) => {
    const send = withJar(new CookieJar(), http);
    const paid = await payWithCard(base, WEEKLY);
    const created = await send(`${base}/subs/create-no-user`, { json: purchaseBody(paid, email) });
    expect(created.status, created.text).toBe(200);
    const owner = { email, subscription_id: (created.body as { id: string }).id };
    const report = async (image: Buffer, extra: Record<string, unknown> = {}): Promise<Report> => {
      uploaded.push(image);
      const answer = await send(`${base}/report/create`, { json: { ...owner, image: image.toString('base64'), ...extra }, headers: {} });
      expect(answer.status, answer.text).toBe(200);
      const { report_id: reportId } = answer.body as ReportCreateResponse;
      for (;;) {
        const got = await send(`${base}/report/get-report`, { json: { ...owner, report_id: reportId } });
        expect(got.status, got.text).toBe(200);
        const { report: current } = reportGetResponseSchema.parse(got.body);
        if (current.status !== 'pending' && current.status !== 'processing') return current;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    return { report };
  };

  it('creates reports on the analyzers, with the request id carried to them', async () => {
    const shopper = await buyer('remote@example.com');
    const done = await Promise.all([shopper.report(datasetFace(0)), shopper.report(datasetFace(1)), shopper.report(datasetFace(2))]);
    expect(done.map((report) => report.status)).toEqual(['completed', 'completed', 'completed']);
    expect(done.every((report) => (report.result?.heritage.groups.length ?? 0) > 0)).toBe(true);
    // Round-robin: both analyzers took photos, each logging the server request's id.
    const logs = [readFileSync(join(dir, 'analyzer-1.log'), 'utf8'), readFileSync(join(dir, 'analyzer-2.log'), 'utf8')];
    const serverIds = new Set([...serverLog.join('').matchAll(/"reqId":"([^"]+)"[^\n]*"url":"\/report\/create"/g)].map((m) => m[1]));
    expect(serverIds.size).toBe(3);
    for (const log of logs) {
      const analyzed = [...log.matchAll(/"reqId":"([^"]+)"[^\n]*"url":"\/v1\/analyze"/g)].map((m) => m[1]);
      expect(analyzed.length).toBeGreaterThan(0);
      for (const id of analyzed) expect(serverIds).toContain(id);
    }
  });

  it('a group photo: the analyzers answer its faces and analyse the chosen one only (ADR 192)', async () => {
    // Searched for afterwards: `shopper.report` records the photo.
    const photo = await groupOfThree();
    const several = await http(`${base}/api/face-check`, {
      method: 'POST',
      headers: { 'content-type': 'image/jpeg' },
      body: photo as unknown as string,
    });
    expect(several.status, several.text).toBe(422);
    const { faces } = severalFacesAnswerSchema.parse(several.body);
    expect(faces).toHaveLength(3);
    const shopper = await buyer('remote-group@example.com');
    const chosen = await shopper.report(photo, { face: faces[1] });
    expect(chosen.status).toBe('completed');
    expect(chosen.result?.heritage.top).toBe('east_asian');
  });

  it('answers 503 with retry-after when an analyzer is full', async () => {
    const face = datasetFace(3);
    uploaded.push(face);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        fetch(`${second.url}${ANALYZER_ANALYZE_PATH}`, {
          method: 'POST',
          headers: { 'content-type': 'application/octet-stream', authorization: `Bearer ${ANALYZER_SECRET}` },
          body: face,
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(1);
    expect(statuses.filter((status) => status === 503).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((status) => status === 200 || status === 503)).toBe(true);
    const busy = answers.find((answer) => answer.status === 503);
    expect(Number(busy?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await busy?.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    await Promise.all(answers.filter((answer) => answer !== busy).map((answer) => answer.body?.cancel()));
  });

  it('moves a photo to the other analyzer when one is killed', async () => {
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe(137);
    const shopper = await buyer('survivor@example.com');
    // Round-robin starts every other photo on the dead analyzer: both still complete.
    const done = await Promise.all([shopper.report(datasetFace(4)), shopper.report(datasetFace(5))]);
    expect(done.map((report) => report.status)).toEqual(['completed', 'completed']);
    expect(serverLog.join('')).toContain('analyzer call failed; trying another');
  });

  it('drains on SIGTERM: the photo in hand gets its answer, then the process exits 0', async () => {
    const face = datasetFace(6);
    uploaded.push(face);
    const inHand = fetch(`${second.url}${ANALYZER_ANALYZE_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', authorization: `Bearer ${ANALYZER_SECRET}` },
      body: face,
    });
    // Wait until the analyzer holds the photo, then ask it to stop.
    for (;;) {
      const metrics = await (await fetch(`${second.url}/metrics`)).text();
      if (/^analyzer_queue_depth\{service="analyzer"\} 1$/m.test(metrics)) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    second.child.kill('SIGTERM');
    const answer = await inHand;
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { ok: boolean }).ok).toBe(true);
    expect(await second.exited).toBe(0);
  });

  it('keeps no trace of any photo in either side’s logs or the server’s data directory', async () => {
    await app.close();
    await database.db.execute(sql`checkpoint`).catch(() => undefined);
    await second.stop();
    const needles = uploaded.flatMap((image) => {
      const middle = image.subarray(Math.floor(image.length / 2), Math.floor(image.length / 2) + 48);
      const base64 = image.toString('base64');
      return [
        Buffer.from(base64.slice(0, 40), 'latin1'),
        Buffer.from(base64.slice(4000, 4040), 'latin1'),
        middle,
        Buffer.from(middle.toString('hex'), 'latin1'),
      ];
    });
    expect(needles).toHaveLength(8 * 4);
    const files = [...filesUnder(dir)];
    expect(files.filter((file) => file.endsWith('.log'))).toHaveLength(2);
    expect(files.some((file) => file.startsWith(dataDir))).toBe(true);
    for (const file of files) {
      const content = readFileSync(file);
      for (const needle of needles) expect(content.includes(needle), file).toBe(false);
    }
    const logs = Buffer.from(serverLog.join(''), 'utf8');
    expect(logs.length).toBeGreaterThan(0);
    for (const needle of needles) expect(logs.includes(needle)).toBe(false);
  });
});
