import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { ANALYSIS_ERROR_MESSAGES, MESSAGES, type ApiError } from '@roots/contracts';
import { severalFacesAnswerSchema, faceBoxToParam, type FaceCheckOk } from '@roots/contracts/face-check';
import {
  reportGetResponseSchema,
  reportListResponseSchema,
  type Report,
  type ReportCreateResponse,
  type ReportGetResponse,
  type ReportListResponse,
  type ReportStatus,
} from '@roots/contracts/reports';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reliabilityBand } from '@roots/contracts/heritage-wording';
import { buildApp, serverLoggerOptions, type RootsApp } from '../../app';
import { loadConfig } from '../../config/env';
import { openDatabase, type Database } from '../../db/database';
import { reports } from '../../db/schema';
import { ManualClock } from '../../lib/clock';
import { startGatewayProcess, type GatewayProcess } from '../../test/gateway-process';
import { makeWebDist, openTestDatabase, testDatabases } from '../../test/helpers';
import { CookieJar, http, payWithCard, purchaseBody } from '../../test/shopper';
import { signInWithEmailCode } from '../../test/sign-in';
import { datasetFace, facelessPng, groupOfThree } from './report-fixtures';
import { ReportsRepository } from './reports.repository';

const WEEKLY = 'roots_3d1_7d2499';
const PROCESSING_TIMEOUT_MS = 600_000;

let gateway: GatewayProcess;
beforeAll(async () => {
  gateway = await startGatewayProcess();
});
afterAll(async () => {
  await gateway?.stop();
});

function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe.each(testDatabases())('report service over HTTP on $name', ({ url }) => {
  let database: Database;
  let app: RootsApp;
  let base: string;
  /** PGlite runs on disk here so that the data directory can be searched for the photo. */
  let dataDir: string | undefined;
  const logLines: string[] = [];
  const clock = new ManualClock(new Date());
  const email = (name: string) => `${name}.${url ? 'pg' : 'pglite'}@example.com`;
  const face = datasetFace(0);
  const uploaded: Buffer[] = [];

  beforeAll(async () => {
    if (url) database = await openTestDatabase(url);
    else {
      dataDir = mkdtempSync(join(tmpdir(), 'roots-reports-'));
      database = await openDatabase({ dataDir });
      await database.migrate();
    }
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      WEB_DIST_DIR: makeWebDist(),
      GATEWAY_URL: gateway.url,
      DATA_DIR: dataDir ?? join(tmpdir(), 'roots-unused'),
      RATE_LIMIT_PER_MINUTE: '100000',
      EMAIL_RATE_LIMIT_PER_HOUR: '100000',
      FACE_CHECK_RATE_LIMIT_PER_MINUTE: '100000',
      // Every request of this suite comes from one address, and its reports hold queue places while
      // they run: the per-client share is proven at its default by analysis-flood.http.test.ts.
      ANALYSIS_QUEUE_PER_CLIENT: '33',
      ANALYSIS_WORKERS: '1',
      REPORT_PROCESSING_TIMEOUT_MS: String(PROCESSING_TIMEOUT_MS),
      REPORT_SWEEP_INTERVAL_MS: '100',
    });
    // Every log line the server writes is kept, to be searched for the photo.
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString('utf8'));
        done();
      },
    });
    app = await buildApp({ config, database, clock, loggerInstance: pino(serverLoggerOptions('info'), sink) });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
    config.publicUrl = base;
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  /** Each purchase's browser: its cookie jar holds the purchase's proof (ADR 085). */
  const jars = new Map<string, CookieJar>();
  const buy = async (buyer: string) => {
    const paid = await payWithCard(base, WEEKLY);
    const jar = new CookieJar();
    const created = await http<{ id: string }>(`${base}/subs/create-no-user`, { json: purchaseBody(paid, buyer), jar });
    expect(created.status, created.text).toBe(200);
    jars.set(created.body.id, jar);
    return { email: buyer, subscription_id: created.body.id };
  };
  /** `http` from the browser that bought the purchase the body names, unless `init.jar` says which. */
  const buyerHttp = <T = unknown>(url: string, init: NonNullable<Parameters<typeof http>[1]> = {}) => {
    const named = (init.json as { subscription_id?: string } | undefined)?.subscription_id;
    const jar = init.jar ?? (named ? jars.get(named) : undefined);
    return http<T>(url, { ...init, ...(jar ? { jar } : {}) });
  };
  const create = (owner: { email: string; subscription_id: string }, image: Buffer, extra: Record<string, unknown> = {}) => {
    uploaded.push(image);
    return buyerHttp<ReportCreateResponse & ApiError>(`${base}/report/create`, {
      json: { ...owner, image: image.toString('base64'), ...extra },
    });
  };
  const get = (owner: { email: string; subscription_id: string }, reportId: string) =>
    buyerHttp<ReportGetResponse & ApiError>(`${base}/report/get-report`, { json: { ...owner, report_id: reportId } });
  /** Polls get-report until a final status; returns every status seen, in order. */
  const follow = async (owner: { email: string; subscription_id: string }, reportId: string) => {
    const seen: ReportStatus[] = [];
    for (;;) {
      const answer = await get(owner, reportId);
      expect(answer.status, answer.text).toBe(200);
      const { report } = reportGetResponseSchema.parse(answer.body);
      if (seen.at(-1) !== report.status) seen.push(report.status);
      if (report.status !== 'pending' && report.status !== 'processing') return { seen, report };
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };

  /** One session per email: the sign-in helper reads an email's first code from the mailbox. */
  const sessions = new Map<string, Promise<string>>();
  const cookieOf = (who: string) => {
    if (!sessions.has(who)) sessions.set(who, signInWithEmailCode(app, who));
    return sessions.get(who)!;
  };

  let owner: { email: string; subscription_id: string };
  let other: { email: string; subscription_id: string };
  let completed: Report;

  it('creates a report from a real face: pending → processing → completed, then lists and fetches it', async () => {
    [owner, other] = await Promise.all([buy(email('owner')), buy(email('other'))]);
    const created = await create(owner, face);
    expect(created.status, created.text).toBe(200);
    expect(created.body).toEqual({ report_id: expect.any(String), status: 'pending' });

    const { seen, report } = await follow(owner, created.body.report_id);
    expect(['pending', ...seen].filter((status, index, all) => all.indexOf(status) === index)).toEqual([
      'pending',
      'processing',
      'completed',
    ]);
    completed = report;
    const result = report.result!;
    expect(report).toMatchObject({
      subscription_id: owner.subscription_id,
      kind: 'extended',
      status: 'completed',
      error: null,
      userId: null,
    });
    expect(result.modelVersion).toMatch(/^roots-heritage-/);
    expect(result.heritage.groups.reduce((sum, group) => sum + group.share, 0)).toBe(100);
    expect(['high', 'medium', 'low']).toContain(result.heritage.confidenceLevel);
    expect(result.traits.length).toBeGreaterThan(3);
    for (const trait of result.traits) expect(trait.region).toEqual({ id: expect.any(String), label: expect.any(String) });
    expect(result.attributions?.regions.length).toBeGreaterThan(0);
    expect(result.insightGroups.length).toBeGreaterThan(0);
    expect(result.culturalInsights.map((insight) => insight.id)).toEqual(result.insightGroups);
    expect(result.population.groups.map((group) => group.id)).toEqual(result.insightGroups);
    // Nothing locates or outlines the face.
    const text = JSON.stringify(report);
    for (const key of ['polygon', 'box', 'mesh', 'faceSidePx', 'descriptor']) expect(text).not.toContain(`"${key}"`);

    const listed = await buyerHttp<ReportListResponse>(`${base}/report/list-reports`, { json: owner });
    expect(listed.status).toBe(200);
    const { reports: list } = reportListResponseSchema.parse(listed.body);
    expect(list.map((item) => item.report_id)).toContain(report.report_id);
    expect(list[0]).not.toHaveProperty('result');
    const top = result.heritage.groups.find((group) => group.id === result.heritage.top)!;
    expect(list.find((item) => item.report_id === report.report_id)?.top_estimate).toEqual(
      result.heritage.display === 'coarse'
        ? expect.objectContaining({ display: 'coarse' })
        : {
            label: top.label,
            share: top.share,
            display: result.heritage.display,
            // The same band the report lists beside the group (heritage-wording.ts).
            uncertainty: result.heritage.display === 'uncertain' ? null : `${reliabilityBand(top.confidence)} reliability`,
          },
    );
  });

  it('creates a population report with heritage and population only', async () => {
    const created = await create(owner, datasetFace(1), { kind: 'population' });
    expect(created.status, created.text).toBe(200);
    const { report } = await follow(owner, created.body.report_id);
    expect(report.status).toBe('completed');
    expect(report.kind).toBe('population');
    expect(report.result).toMatchObject({ traits: [], attributions: null, culturalInsights: [] });
    expect(report.result?.population.groups.length).toBeGreaterThan(0);
  });

  it('fails cleanly on a photo without a face and on a damaged photo; refuses a file that is not JPEG, PNG or WebP', async () => {
    const noFace = await create(owner, facelessPng());
    const whole = datasetFace(3);
    const damaged = await create(owner, whole.subarray(0, Math.floor(whole.length * 0.6)));
    expect(noFace.status).toBe(200);
    expect(damaged.status).toBe(200);
    // Not a camera format: refused before anything is stored or decoded (ADR 164).
    const notImage = await create(owner, Buffer.from('%PDF-1.4 definitely not a photo '.repeat(64)));
    expect(notImage.status).toBe(415);
    expect(notImage.body).toEqual({ error: expect.stringContaining('JPEG, PNG and WebP'), code: 'UNSUPPORTED_MEDIA_TYPE' });
    const [faceless, garbage] = await Promise.all([follow(owner, noFace.body.report_id), follow(owner, damaged.body.report_id)]);
    expect(faceless.report).toMatchObject({
      status: 'failed',
      result: null,
      error: { code: 'NO_FACE', message: expect.stringContaining('face') },
    });
    expect(garbage.report).toMatchObject({ status: 'failed', result: null, error: { code: 'CORRUPT_IMAGE' } });
  });

  it('refuses a 20 MB body, bad base64, and a purchase that is not the caller’s', async () => {
    const huge = await buyerHttp<ApiError>(`${base}/report/create`, {
      json: { ...owner, image: Buffer.alloc(20 * 1024 * 1024, 1).toString('base64') },
    });
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe('PAYLOAD_TOO_LARGE');
    const badBase64 = await buyerHttp<ApiError>(`${base}/report/create`, { json: { ...owner, image: '***not base64***' } });
    expect(badBase64.status).toBe(400);
    const image = face.toString('base64');
    const unknownPurchase = await buyerHttp<ApiError>(`${base}/report/create`, {
      json: { email: owner.email, subscription_id: '00000000-0000-4000-8000-000000000000', image },
    });
    expect(unknownPurchase.status).toBe(403);
    const wrongEmail = await buyerHttp<ApiError>(`${base}/report/create`, {
      json: { email: other.email, subscription_id: owner.subscription_id, image },
    });
    expect(wrongEmail.status).toBe(403);
    expect(wrongEmail.body).toEqual({ error: 'No subscription data', code: 'FORBIDDEN' });
  });

  it('refuses without a live purchase with report access', async () => {
    const lapsed = await buy(email('lapsed'));
    await database.db.execute(sql`update access_grants set revoked_at = now() where subscription_id = ${lapsed.subscription_id}`);
    const refused = await buyerHttp<ApiError>(`${base}/report/create`, { json: { ...lapsed, image: face.toString('base64') } });
    expect(refused.status).toBe(403);
    expect(
      await database.db
        .select()
        .from(reports)
        .where(sql`${reports.email} = ${lapsed.email}`),
    ).toEqual([]);
  });

  it('a purchase without reports cannot make one because another purchase of its email has them (issue 22)', async () => {
    // A purchase whose access has ended (refunded) holds no reports; the email it names holds a subscription bought elsewhere.
    const paid = await payWithCard(base, 'roots_report_2899_otp');
    const jar = new CookieJar();
    const created = await http<{ id: string }>(`${base}/subs/create-no-user`, { json: purchaseBody(paid, owner.email), jar });
    expect(created.status, created.text).toBe(200);
    await database.db.execute(sql`update access_grants set revoked_at = now() where subscription_id = ${created.body.id}`);
    const made = await http<ApiError>(`${base}/report/create`, {
      json: { email: owner.email, subscription_id: created.body.id, image: face.toString('base64') },
      jar,
    });
    expect(made).toMatchObject({ status: 403, body: { error: MESSAGES.noSubscriptionData, code: 'FORBIDDEN' } });
    expect(
      await database.db
        .select()
        .from(reports)
        .where(sql`${reports.subscriptionId} = ${created.body.id}`),
    ).toEqual([]);
  });

  it('a Profile Pro purchase alone makes its buyer’s report: the paywall asked for the selfie (issue 35, ADR 194)', async () => {
    const buyer = email('profile-pro');
    const paid = await payWithCard(base, 'roots_profile_pro_2899_otp');
    const jar = new CookieJar();
    const created = await http<{ id: string }>(`${base}/subs/create-no-user`, { json: purchaseBody(paid, buyer), jar });
    expect(created.status, created.text).toBe(200);
    jars.set(created.body.id, jar);
    const profilePro = { email: buyer, subscription_id: created.body.id };
    const made = await create(profilePro, face);
    expect(made.status, made.text).toBe(200);
    const { report } = await follow(profilePro, made.body.report_id);
    expect(report).toMatchObject({ status: 'completed', subscription_id: created.body.id });
    // What the Profile Pro line promises: the ethnicity breakdown, facial traits and cultural insights.
    expect(report.result?.heritage.groups.length).toBeGreaterThan(0);
    expect(report.result?.traits.length).toBeGreaterThan(0);
    expect(report.result?.culturalInsights.length).toBeGreaterThan(0);
  });

  it('hides a report from another user: get, list and PDF answer as if it did not exist', async () => {
    const stranger = await get(other, completed.report_id);
    expect(stranger.status).toBe(404);
    expect(stranger.body.code).toBe('NOT_FOUND');
    const theirList = await buyerHttp<ReportListResponse>(`${base}/report/list-reports`, { json: other });
    expect(theirList.body.reports).toEqual([]);
    const pdf = await buyerHttp(`${base}/pdf-report/content`, { json: { ...other, report_id: completed.report_id } });
    expect(pdf.status).toBe(404);
    // Someone else's subscription id with the owner's email proves nothing.
    const mixed = await get({ email: owner.email, subscription_id: other.subscription_id }, completed.report_id);
    expect(mixed.status).toBe(403);
  });

  it("refuses the owner's email and subscription id from any browser but the buyer's (ADR 085)", async () => {
    const elsewhere = new CookieJar();
    const refused = { error: MESSAGES.noSubscriptionData, code: 'FORBIDDEN' };
    const read = await buyerHttp(`${base}/report/get-report`, { json: { ...owner, report_id: completed.report_id }, jar: elsewhere });
    expect(read).toMatchObject({ status: 403, body: refused });
    expect(read.text).not.toContain(completed.report_id);
    const list = await buyerHttp(`${base}/report/list-reports`, { json: owner, jar: elsewhere });
    expect(list).toMatchObject({ status: 403, body: refused });
    const pdf = await buyerHttp(`${base}/pdf-report/content`, { json: { ...owner, report_id: completed.report_id }, jar: elsewhere });
    expect(pdf).toMatchObject({ status: 403, body: refused });
    const before = await database.db
      .select()
      .from(reports)
      .where(sql`${reports.email} = ${owner.email}`);
    const made = await buyerHttp(`${base}/report/create`, { json: { ...owner, image: face.toString('base64') }, jar: elsewhere });
    expect(made).toMatchObject({ status: 403, body: refused });
    expect(
      await database.db
        .select()
        .from(reports)
        .where(sql`${reports.email} = ${owner.email}`),
    ).toHaveLength(before.length);
  });

  it('expires a report stuck in processing (the process died mid-analysis)', async () => {
    const now = clock.now();
    const stuckId = crypto.randomUUID();
    await database.db.insert(reports).values({
      id: stuckId,
      subscriptionId: owner.subscription_id,
      email: owner.email,
      kind: 'extended',
      status: 'processing',
      deadlineAt: new Date(now.getTime() + PROCESSING_TIMEOUT_MS),
      createdAt: now,
      updatedAt: now,
    });
    expect((await get(owner, stuckId)).body.report.status).toBe('processing');
    clock.advance(PROCESSING_TIMEOUT_MS + 1);
    const { seen, report } = await follow(owner, stuckId);
    expect(seen.at(-1)).toBe('expired');
    expect(report.result).toBeNull();
  });

  it('links the subscription’s reports to the signed-in user (report/update)', async () => {
    const anonymous = await buyerHttp<ApiError>(`${base}/report/update`, { json: { ...owner, userId: 'someone' } });
    expect(anonymous.status).toBe(401);
    const cookie = await cookieOf(owner.email);
    const session = await http<{ user: { id: string } }>(`${base}/api/auth/get-session`, { headers: { cookie } });
    const userId = session.body.user.id;
    const notMe = await buyerHttp<ApiError>(`${base}/report/update`, { json: { ...owner, userId: 'someone-else' }, headers: { cookie } });
    expect(notMe.status).toBe(403);
    // Another signed-in user cannot take the owner's purchase.
    const otherCookie = await cookieOf(other.email);
    const otherSession = await http<{ user: { id: string } }>(`${base}/api/auth/get-session`, { headers: { cookie: otherCookie } });
    const stolen = await buyerHttp<ApiError>(`${base}/report/update`, {
      json: { ...owner, userId: otherSession.body.user.id },
      headers: { cookie: otherCookie },
    });
    expect(stolen.status).toBe(403);

    const linked = await buyerHttp<{ updated: number }>(`${base}/report/update`, { json: { ...owner, userId }, headers: { cookie } });
    expect(linked.status, linked.text).toBe(200);
    expect(linked.body.updated).toBeGreaterThanOrEqual(2);
    expect((await get(owner, completed.report_id)).body.report.userId).toBe(userId);
  });

  it('signed in, the session alone reads the user’s own reports (ADR 075); others get 404, visitors 401', async () => {
    const cookie = await cookieOf(owner.email);
    const mine = await buyerHttp<ReportListResponse & ApiError>(`${base}/report/list-reports`, { json: {}, headers: { cookie } });
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.reports.map((report) => report.report_id)).toContain(completed.report_id);
    const ofSubscription = await buyerHttp<ReportListResponse>(`${base}/report/list-reports`, {
      json: { subscription_id: owner.subscription_id },
      headers: { cookie },
    });
    expect(ofSubscription.body.reports.every((report) => report.subscription_id === owner.subscription_id)).toBe(true);
    const one = await buyerHttp<ReportGetResponse>(`${base}/report/get-report`, {
      json: { report_id: completed.report_id },
      headers: { cookie },
    });
    expect(one.status).toBe(200);
    expect(one.body.report.result?.modelVersion).toBe(completed.result?.modelVersion);
    const pdf = await buyerHttp(`${base}/pdf-report/content`, { json: { report_id: completed.report_id }, headers: { cookie } });
    expect(pdf.status).toBe(200);

    const visitor = await buyerHttp<ApiError>(`${base}/report/get-report`, { json: { report_id: completed.report_id } });
    expect(visitor.status).toBe(401);
    const otherCookie = await cookieOf(other.email);
    const theirs = await buyerHttp<ApiError>(`${base}/report/get-report`, {
      json: { report_id: completed.report_id },
      headers: { cookie: otherCookie },
    });
    expect(theirs.status).toBe(404);
    const theirList = await buyerHttp<ReportListResponse>(`${base}/report/list-reports`, { json: {}, headers: { cookie: otherCookie } });
    expect(theirList.body.reports.map((report) => report.report_id)).not.toContain(completed.report_id);
    const notTheirSubscription = await buyerHttp<ApiError>(`${base}/report/list-reports`, {
      json: { subscription_id: owner.subscription_id },
      headers: { cookie: otherCookie },
    });
    expect(notTheirSubscription.status).toBe(404);
    const halfPurchase = await buyerHttp<ApiError>(`${base}/report/get-report`, {
      json: { report_id: completed.report_id, email: owner.email },
    });
    expect(halfPurchase.status).toBe(400);
  });

  it('signed in with another email, a user reads the unlinked reports of a subscription finalized to them', async () => {
    const bought = await buy(email('finalized'));
    const now = clock.now();
    const reportId = crypto.randomUUID();
    await database.db.insert(reports).values({
      id: reportId,
      subscriptionId: bought.subscription_id,
      email: bought.email,
      kind: 'extended',
      status: 'failed',
      errorCode: 'NO_FACE',
      errorMessage: 'No face',
      deadlineAt: now,
      createdAt: now,
      updatedAt: now,
    });
    const cookie = await cookieOf(email('finalizer'));
    const session = await http<{ user: { id: string } }>(`${base}/api/auth/get-session`, { headers: { cookie } });
    const before = await buyerHttp<ApiError>(`${base}/report/get-report`, { json: { report_id: reportId }, headers: { cookie } });
    expect(before.status).toBe(404);
    await database.db.execute(sql`update subscriptions set user_id = ${session.body.user.id} where id = ${bought.subscription_id}`);
    const after = await buyerHttp<ReportGetResponse>(`${base}/report/get-report`, { json: { report_id: reportId }, headers: { cookie } });
    expect(after.status).toBe(200);
    expect(after.body.report.error?.code).toBe('NO_FACE');
    const listed = await buyerHttp<ReportListResponse>(`${base}/report/list-reports`, { json: {}, headers: { cookie } });
    expect(listed.body.reports.map((report) => report.report_id)).toEqual([reportId]);
  });

  it('records the owner’s feedback on a report with report/update; refuses it for someone else’s report', async () => {
    const cookie = await cookieOf(owner.email);
    const session = await http<{ user: { id: string } }>(`${base}/api/auth/get-session`, { headers: { cookie } });
    const userId = session.body.user.id;
    const feedback = { report_id: completed.report_id, looks_correct: false, text: '  The second group looks too high.  ' };
    const saved = await buyerHttp<{ updated: number; feedback_saved: boolean }>(`${base}/report/update`, {
      json: { subscription_id: owner.subscription_id, userId, feedback },
      headers: { cookie },
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.feedback_saved).toBe(true);
    const repository = new ReportsRepository();
    expect(await repository.feedbackOf(database.db, completed.report_id)).toEqual({
      report_id: completed.report_id,
      looks_correct: false,
      text: 'The second group looks too high.',
    });
    // A later answer replaces the earlier one.
    await buyerHttp(`${base}/report/update`, {
      json: { subscription_id: owner.subscription_id, userId, feedback: { report_id: completed.report_id, looks_correct: true } },
      headers: { cookie },
    });
    expect(await repository.feedbackOf(database.db, completed.report_id)).toMatchObject({ looks_correct: true, text: '' });

    const otherCookie = await cookieOf(other.email);
    const otherSession = await http<{ user: { id: string } }>(`${base}/api/auth/get-session`, { headers: { cookie: otherCookie } });
    const onTheirs = await buyerHttp<ApiError>(`${base}/report/update`, {
      json: { subscription_id: other.subscription_id, userId: otherSession.body.user.id, feedback: { ...feedback, looks_correct: true } },
      headers: { cookie: otherCookie },
    });
    expect(onTheirs.status).toBe(404);
    const tooLong = await buyerHttp<ApiError>(`${base}/report/update`, {
      json: { subscription_id: owner.subscription_id, userId, feedback: { ...feedback, text: 'x'.repeat(2_001) } },
      headers: { cookie },
    });
    expect(tooLong.status).toBe(400);
    expect(await repository.feedbackOf(database.db, completed.report_id)).toMatchObject({ looks_correct: true });
  });

  it('renders the PDF with the diagram, traits and insights', async () => {
    const answer = await fetch(`${base}/pdf-report/content`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: jars.get(owner.subscription_id)!.header()!, origin: base },
      body: JSON.stringify({ ...owner, report_id: completed.report_id }),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/pdf');
    const pdf = Buffer.from(await answer.arrayBuffer());
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const dir = mkdtempSync(join(tmpdir(), 'roots-pdf-'));
    writeFileSync(join(dir, 'report.pdf'), pdf);
    execFileSync('pdftoppm', ['-png', '-r', '30', join(dir, 'report.pdf'), join(dir, 'page')]);
    const pages = readdirSync(dir).filter((name) => name.endsWith('.png'));
    expect(pages.length).toBeGreaterThanOrEqual(3);
    for (const page of pages) expect(readFileSync(join(dir, page)).subarray(1, 4).toString('latin1')).toBe('PNG');
    const text = execFileSync('pdftotext', ['-layout', join(dir, 'report.pdf'), '-'], { encoding: 'utf8' });
    const pageTexts = text.split('\f');
    expect(pageTexts[0]).toContain('Ethnicity Conclusion');
    expect(pageTexts[0]).toContain('Detalisation');
    expect(pageTexts[0]).toContain(completed.result!.modelVersion);
    expect(pageTexts[1]).toContain('Facial traits with supporting regions');
    expect(pageTexts[1]).toContain(completed.result!.traits[0]!.description.slice(0, 20));
    expect(text).toContain('Cultural Insights');
    expect(text).toContain('Population insights');

    // The newest completed report is the default; a report that is not completed is refused.
    const latest = await buyerHttp(`${base}/pdf-report/content`, { json: owner });
    expect(latest.status).toBe(200);
  });

  it('signed in, the app makes a report without an email: under the newest purchase with reports, or the one it names (ADR 145)', async () => {
    const buyer = email('selfie-in-app');
    const weekly = await buy(buyer);
    /** A purchase of `plan` with the same email, in a browser of its own. */
    const buyPack = async (plan: string) => {
      // Bought a moment later, as a customer buys (the test clock stands still otherwise: equal purchase times).
      clock.advance(1_000);
      const paid = await payWithCard(base, plan);
      const created = await http<{ id: string }>(`${base}/subs/create-no-user`, { json: purchaseBody(paid, buyer), jar: new CookieJar() });
      expect(created.status, created.text).toBe(200);
      return created.body.id;
    };
    const reportPack = await buyPack('roots_report_2899_otp');
    // The newest purchase holds no reports (its access ended: refunded): it is never chosen.
    const profilePro = await buyPack('roots_profile_pro_2899_otp');
    await database.db.execute(sql`update access_grants set revoked_at = now() where subscription_id = ${profilePro}`);
    const cookie = await cookieOf(buyer);
    const image = face.toString('base64');
    uploaded.push(face);
    /** report/create from a browser holding no purchase cookie: the session is the only proof. */
    const createSignedIn = (body: Record<string, unknown>, headers: Record<string, string> = { cookie }) =>
      http<ReportCreateResponse & ApiError>(`${base}/report/create`, { json: { image, ...body }, headers });
    const madeUnder = async (reportId: string) => {
      const read = await http<ReportGetResponse & ApiError>(`${base}/report/get-report`, {
        json: { report_id: reportId },
        headers: { cookie },
      });
      expect(read.status, read.text).toBe(200);
      return read.body.report.subscription_id;
    };

    const newest = await createSignedIn({});
    expect(newest.status, newest.text).toBe(200);
    expect(newest.body.status).toBe('pending');
    expect(await madeUnder(newest.body.report_id)).toBe(reportPack);

    // Once the report pack's access is gone, the older subscription is the one with reports.
    await database.db.execute(sql`update access_grants set revoked_at = now() where subscription_id = ${reportPack}`);
    const older = await createSignedIn({});
    expect(older.status, older.text).toBe(200);
    expect(await madeUnder(older.body.report_id)).toBe(weekly.subscription_id);

    const named = await createSignedIn({ subscription_id: weekly.subscription_id, kind: 'population' });
    expect(named.status, named.text).toBe(200);
    expect(await madeUnder(named.body.report_id)).toBe(weekly.subscription_id);

    const countOf = async (subscriptionId: string) =>
      (
        await database.db
          .select()
          .from(reports)
          .where(sql`${reports.subscriptionId} = ${subscriptionId}`)
      ).length;
    const refused = { status: 403, body: { error: MESSAGES.noSubscriptionData, code: 'FORBIDDEN' } };
    const before = { other: await countOf(other.subscription_id), profilePro: await countOf(profilePro) };
    // Someone else's purchase, a purchase without reports, a visitor, an email without its purchase.
    expect(await createSignedIn({ subscription_id: other.subscription_id })).toMatchObject(refused);
    expect(await createSignedIn({ subscription_id: profilePro })).toMatchObject(refused);
    expect(await createSignedIn({}, {})).toMatchObject({ status: 401 });
    expect(await createSignedIn({ email: buyer })).toMatchObject({ status: 400 });
    expect({ other: await countOf(other.subscription_id), profilePro: await countOf(profilePro) }).toEqual(before);

    // A signed-in user who owns no purchase with reports is refused, and nothing is stored.
    const strangerCookie = await cookieOf(email('selfie-no-purchase'));
    expect(await createSignedIn({}, { cookie: strangerCookie })).toMatchObject(refused);
  });

  it('‘Delete my data’ erases the user’s reports and their feedback', async () => {
    const cookie = await cookieOf(owner.email);
    const repository = new ReportsRepository();
    expect(await repository.feedbackOf(database.db, completed.report_id)).toBeDefined();
    const deleted = await http(`${base}/api/account`, { method: 'DELETE', headers: { cookie } });
    expect(deleted.status, deleted.text).toBe(200);
    expect(await repository.find(database.db, completed.report_id)).toBeUndefined();
    expect(await repository.feedbackOf(database.db, completed.report_id)).toBeUndefined();
  });

  it('face check: 200 for one usable face, 422 with the engine’s message otherwise, 415 for other formats, 413 over the limit', async () => {
    const post = (body: Buffer | string, contentType: string) =>
      http<FaceCheckOk & ApiError>(`${base}/api/face-check`, {
        method: 'POST',
        headers: { 'content-type': contentType },
        body: body as string,
      });
    uploaded.push(face);
    const ok = await post(face, 'image/jpeg');
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ ok: true, quality: { brightness: expect.any(Number) } });
    const noFace = await post(facelessPng(), 'image/png');
    expect(noFace.status).toBe(422);
    expect(noFace.body).toEqual({ error: expect.stringContaining('face'), code: 'NO_FACE' });
    const notImage = await post(Buffer.from('plain text, not a photo'), 'application/octet-stream');
    expect(notImage.status).toBe(415);
    expect(notImage.body.code).toBe('UNSUPPORTED_IMAGE_FORMAT');
    const tooBig = await post(Buffer.alloc(20 * 1024 * 1024, 7), 'image/jpeg');
    expect(tooBig.status).toBe(413);
    const json = await http<ApiError>(`${base}/api/face-check`, { json: { image: 'x' } });
    expect(json.status).toBe(415);
  });

  it('a group photo: the check answers the faces, the chosen face alone is checked and reported (ADR 192)', async () => {
    const photo = await groupOfThree();
    uploaded.push(photo);
    const check = (query = '') =>
      http<FaceCheckOk & ApiError>(`${base}/api/face-check${query}`, {
        method: 'POST',
        headers: { 'content-type': 'image/jpeg' },
        body: photo as unknown as string,
      });
    const several = await check();
    expect(several.status, several.text).toBe(422);
    // The boxes of the three faces, left to right, and nothing of the photo.
    const { faces } = severalFacesAnswerSchema.parse(several.body);
    expect(Object.keys(several.body as object).sort()).toEqual(['code', 'error', 'faces']);
    expect(faces.map((box) => Math.floor((box.x + box.width / 2) * 3))).toEqual([0, 1, 2]);
    const second = faces[1]!;

    const chosen = await check(`?face=${faceBoxToParam(second)}`);
    expect(chosen.status, chosen.text).toBe(200);
    const nowhere = await check(`?face=${faceBoxToParam({ x: 0, y: 0, width: 0.1, height: 0.1 })}`);
    expect(nowhere.status).toBe(422);
    expect(nowhere.body).toEqual({ error: ANALYSIS_ERROR_MESSAGES.CHOSEN_FACE_NOT_FOUND, code: 'CHOSEN_FACE_NOT_FOUND' });
    const malformed = await check('?face=second');
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('VALIDATION_ERROR');

    // report/create with the chosen box: the middle person, the one East Asian face of the three.
    const owner = await buy(email('group-photo'));
    const made = await create(owner, photo, { face: second });
    expect(made.status, made.text).toBe(200);
    const { report } = await follow(owner, made.body.report_id);
    expect(report.status).toBe('completed');
    expect(report.result?.heritage.top).toBe('east_asian');
    // The same photo with the first face: another estimate. Without a choice: refused, with the faces' message.
    const first = await create(owner, photo, { face: faces[0] });
    expect((await follow(owner, first.body.report_id)).report.result?.heritage.top).not.toBe('east_asian');
    const unchosen = await create(owner, photo);
    expect((await follow(owner, unchosen.body.report_id)).report.error).toEqual({
      code: 'MULTIPLE_FACES',
      message: ANALYSIS_ERROR_MESSAGES.MULTIPLE_FACES,
    });
    const outside = await create(owner, photo, { face: { x: 0.9, y: 0.1, width: 0.3, height: 0.2 } });
    expect(outside.status).toBe(400);
  });

  it('keeps no trace of any photo in the database, the data directory or the logs', async () => {
    const needles = uploaded.flatMap((image) => {
      const middle = image.subarray(Math.floor(image.length / 2), Math.floor(image.length / 2) + 48);
      return [
        { text: image.toString('base64').slice(0, 40), bytes: Buffer.from(image.toString('base64').slice(0, 40), 'latin1') },
        { text: middle.toString('base64').slice(4, 44), bytes: middle },
        { text: middle.toString('hex'), bytes: Buffer.from(middle.toString('hex'), 'latin1') },
      ];
    });
    const columns = await database.db.execute(sql`
      select table_name, column_name, data_type from information_schema.columns
      where table_schema = 'public' and data_type in ('text', 'character varying', 'bytea', 'json', 'jsonb')`);
    const rows = rowsOf<{ table_name: string; column_name: string; data_type: string }>(columns);
    expect(rows.some((column) => column.table_name === 'reports' && column.column_name === 'result')).toBe(true);
    for (const column of rows) {
      for (const needle of needles) {
        const target = sql.identifier(column.table_name);
        const field = sql.identifier(column.column_name);
        const hits = await database.db.execute(
          column.data_type === 'bytea'
            ? sql`select count(*)::int as n from ${target} where position(${needle.bytes} in ${field}) > 0`
            : sql`select count(*)::int as n from ${target} where strpos(${field}::text, ${needle.text}) > 0`,
        );
        const [hit] = rowsOf<{ n: number }>(hits);
        expect(hit?.n, `${column.table_name}.${column.column_name}`).toBe(0);
      }
    }
    const logs = logLines.join('');
    expect(logs.length).toBeGreaterThan(0);
    for (const needle of needles) expect(logs).not.toContain(needle.text);
    if (dataDir) {
      await database.db.execute(sql`checkpoint`);
      for (const file of filesUnder(dataDir)) {
        const content = readFileSync(file);
        for (const needle of needles) {
          expect(content.includes(needle.bytes), file).toBe(false);
          expect(content.includes(Buffer.from(needle.text, 'latin1')), file).toBe(false);
        }
      }
    }
  });
});
