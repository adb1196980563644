import { request as httpRequest } from 'node:http';
import { MAX_INPUT_PIXELS } from '@roots/analysis/admission';
import type { ApiError } from '@roots/contracts';
import { readinessSchema } from '@roots/contracts';
import type { ReportCreateResponse } from '@roots/contracts/reports';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type RootsApp } from '../../app';
import { loadConfig } from '../../config/env';
import type { Database } from '../../db/database';
import { CookieJar, withJar } from '../../test/cookie-jar';
import { startGatewayProcess, type GatewayProcess } from '../../test/gateway-process';
import { makeWebDist, openTestDatabase, RELAXED_CLIENT_LIMITS } from '../../test/helpers';
import { http, payWithCard, purchaseBody } from '../../test/shopper';
import { datasetFace, facelessPng } from '../reports/report-fixtures';

/**
 * Issue 32, second bullet, rerun against the real server at its default limits (one analysis worker):
 * 321-byte SVG bombs and floods of real photos from a few loopback addresses (the whole 127/8 is
 * this machine) must not keep a shopper's selfie from its verdict.
 */

/** A 321-byte kind of SVG that asks the image library to render 36 MP through a wide blur. */
const SVG_BOMB = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="6000" height="6000"><filter id="b"><feGaussianBlur stdDeviation="300"/></filter>' +
    '<rect width="6000" height="6000" fill="#808080" filter="url(#b)"/></svg>',
);

type Answer = { status: number; retryAfter: string | undefined; body: { ok?: boolean; code?: string; error?: string } };

/** POSTs `body` from a given loopback address and answers status, `retry-after` and the JSON body. */
function postFrom(localAddress: string, url: string, body: Buffer, contentType: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      url,
      { method: 'POST', localAddress, agent: false, headers: { 'content-type': contentType, 'content-length': body.length } },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const retryAfter = answer.headers['retry-after'];
          resolve({
            status: answer.statusCode ?? 0,
            retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined,
            body: JSON.parse(text),
          });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** One counter or gauge from the server's /metrics, summed over the series whose labels contain `labels`. */
async function metric(base: string, name: string, labels = ''): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  let total = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith(`${name}{`) && line.includes(labels)) total += Number(line.split(' ').at(-1));
  }
  return total;
}

/** The product on a loopback port with its default limits, one analysis worker, and `env` on top. */
async function startProduct(env: Record<string, string>): Promise<{ app: RootsApp; base: string; database: Database }> {
  const database = await openTestDatabase(undefined);
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: makeWebDist(),
    ANALYSIS_WORKERS: '1',
    // The sign-in and gateway budgets are not under test; RATE_LIMIT_PER_MINUTE, FACE_CHECK_RATE_LIMIT_PER_MINUTE
    // and the analysis queue keep their defaults unless `env` says otherwise.
    ...RELAXED_CLIENT_LIMITS,
    ...env,
  });
  const app = await buildApp({ config, database });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  config.publicUrl = base;
  return { app, base, database };
}

describe('issue 32: SVG bombs and photo floods from a few addresses, at the default limits', () => {
  let product: Awaited<ReturnType<typeof startProduct>>;
  const defaults = loadConfig({});

  beforeAll(async () => {
    // The default limits; one analysis worker (the default is one per core), so the order in which
    // photos are answered is the order the queue hands them out.
    product = await startProduct({ ANALYSIS_WORKERS: '1' });
    // Models load on the first photo; the shopper below should not be the one to pay that.
    const warm = await postFrom('127.0.0.9', `${product.base}/api/face-check`, datasetFace(0), 'image/jpeg');
    expect(warm.status).toBe(200);
  }, 180_000);
  afterAll(async () => {
    await product?.app.close();
    await product?.database.close();
  });

  it('40 SVG bombs from two addresses are refused before decoding; a selfie from a third gets its verdict', async () => {
    expect(defaults.FACE_CHECK_RATE_LIMIT_PER_MINUTE).toBe(20);
    const { base } = product;
    const decodedBefore = await metric(base, 'analysis_engine_photos_total');
    const bombs = ['127.0.0.2', '127.0.0.3'].flatMap((address) =>
      Array.from({ length: 20 }, () => postFrom(address, `${base}/api/face-check`, SVG_BOMB, 'image/svg+xml')),
    );
    const selfie = await postFrom('127.0.0.4', `${base}/api/face-check`, datasetFace(0), 'image/jpeg');
    const refused = await Promise.all(bombs);

    expect(selfie.status).toBe(200);
    expect(selfie.body.ok).toBe(true);
    // Every bomb: 415 with the contracts' code and words, inside the per-address limit (no 429).
    expect(refused.map((answer) => answer.status)).toEqual(Array.from({ length: 40 }, () => 415));
    expect(refused[0]?.body).toEqual({ error: expect.stringContaining('JPEG, PNG and WebP'), code: 'UNSUPPORTED_IMAGE_FORMAT' });
    // Only the selfie reached the engine: no SVG was ever decoded.
    expect((await metric(base, 'analysis_engine_photos_total')) - decodedBefore).toBe(1);
    expect(await metric(base, 'analysis_images_refused_total', 'code="UNSUPPORTED_IMAGE_FORMAT"')).toBe(40);
  });

  it('a photo declaring more than 40 MP is refused from its header, and a PDF or a GIF by its first bytes', async () => {
    const { base } = product;
    const decodedBefore = await metric(base, 'analysis_engine_photos_total');
    // A PNG whose header declares 8000 × 6000 with no pixels behind it: nothing to decode, nothing decoded.
    const lying = facelessPng(64, 64);
    lying.writeUInt32BE(8000, 16);
    lying.writeUInt32BE(6000, 20);
    expect(8000 * 6000).toBeGreaterThan(MAX_INPUT_PIXELS);
    const tooLarge = await postFrom('127.0.0.5', `${base}/api/face-check`, lying, 'image/png');
    expect(tooLarge).toMatchObject({ status: 422, body: { code: 'IMAGE_TOO_LARGE' } });
    const gif = Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.alloc(64)]);
    for (const other of [Buffer.from('%PDF-1.4 not a photo'), gif]) {
      expect(await postFrom('127.0.0.5', `${base}/api/face-check`, other, 'application/octet-stream')).toMatchObject({
        status: 415,
        body: { code: 'UNSUPPORTED_IMAGE_FORMAT' },
      });
    }
    expect((await metric(base, 'analysis_engine_photos_total')) - decodedBefore).toBe(0);
  });

  it('a flood of real photos holds only its share of the queue; a shopper from another address is next in turn', async () => {
    const { base } = product;
    expect(defaults.ANALYSIS_QUEUE_PER_CLIENT).toBe(3);
    const finished: string[] = [];
    const send = (address: string, name: string, image: Buffer) =>
      postFrom(address, `${base}/api/face-check`, image, 'image/jpeg').then((answer) => {
        if (answer.status === 200 || answer.status === 422) finished.push(name);
        return answer;
      });
    const flood = ['127.0.0.6', '127.0.0.7'].flatMap((address) =>
      Array.from({ length: 8 }, (_, n) => send(address, `flood-${address}-${n}`, datasetFace(1 + n))),
    );
    // Wait until both flooders are told to wait (their share is taken), then the shopper sends one selfie.
    const waitForRefusals = async () => {
      for (let tries = 0; tries < 400; tries++) {
        if ((await metric(base, 'analysis_queue_refused_total', 'reason="share"')) >= 10) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    await waitForRefusals();
    const selfieAnswer = await send('127.0.0.8', 'selfie', datasetFace(0));
    const answers = await Promise.all(flood);
    // Flood photos analysed after the selfie's verdict: every admitted one was queued before it.
    const afterSelfie = finished.length - 1 - finished.indexOf('selfie');

    expect(selfieAnswer.status).toBe(200);
    expect(selfieAnswer.body.ok).toBe(true);
    for (const address of ['127.0.0.6', '127.0.0.7']) {
      const mine = answers.filter((_, index) => (index < 8 ? '127.0.0.6' : '127.0.0.7') === address);
      const refusedShare = mine.filter((answer) => answer.status === 429);
      // Three places each (ANALYSIS_QUEUE_PER_CLIENT); the rest told when to come back.
      expect(mine.length - refusedShare.length).toBe(3);
      expect(refusedShare.every((answer) => answer.body.code === 'RATE_LIMITED' && Number(answer.retryAfter) >= 1)).toBe(true);
    }
    // Round-robin: the selfie takes its turn beside the flooders', so admitted flood photos are still
    // waiting when it is answered. First in, first out would answer all six before it: none after.
    // (Counting the photos answered while the selfie waited raced with its upload: one finishing on
    // the way counted as ahead.)
    expect(afterSelfie).toBeGreaterThanOrEqual(1);
  }, 90_000);
});

describe('issue 32: a full analysis queue answers 503 with retry-after, on the face check and report/create', () => {
  let product: Awaited<ReturnType<typeof startProduct>>;
  let gateway: GatewayProcess;
  /** A 6000 × 6000 grey PNG (36 MP, under the limit): a second or more of decoding each, to keep the queue full. */
  let heavy: Buffer;

  beforeAll(async () => {
    gateway = await startGatewayProcess();
    // Three places in all: one running, two waiting; one a client.
    product = await startProduct({ GATEWAY_URL: gateway.url, ANALYSIS_QUEUE_SIZE: '2', ANALYSIS_QUEUE_PER_CLIENT: '1' });
    const { default: sharp } = await import('sharp');
    heavy = await sharp({ create: { width: 6000, height: 6000, channels: 3, background: '#777777' } })
      .png()
      .toBuffer();
    expect((await postFrom('127.0.0.9', `${product.base}/api/face-check`, datasetFace(0), 'image/jpeg')).status).toBe(200);
  }, 180_000);
  afterAll(async () => {
    await product?.app.close();
    await product?.database.close();
    await gateway?.stop();
  });

  it('a configuration whose share exceeds the queue does not start', () => {
    expect(() => loadConfig({ ANALYSIS_QUEUE_SIZE: '2', ANALYSIS_QUEUE_PER_CLIENT: '4' })).toThrow(/ANALYSIS_QUEUE_PER_CLIENT/);
    expect(() => loadConfig({ ANALYSIS_QUEUE_SIZE: '-1' })).toThrow(/ANALYSIS_QUEUE_SIZE/);
  });

  it('full: 503 + retry-after for a face check and a report, /readyz lists the queue as degraded, /healthz stays ok', async () => {
    const { base } = product;
    // A buyer with a purchase that includes reports (its cookies prove it, ADR 085).
    const send = withJar(new CookieJar(), http);
    const email = 'queue-full@example.com';
    const paid = await payWithCard(base, 'roots_3d1_7d2499');
    const created = await send(`${base}/subs/create-no-user`, { json: purchaseBody(paid, email) });
    expect(created.status, created.text).toBe(200);
    const owner = { email, subscription_id: (created.body as { id: string }).id };

    // An SVG on report/create: refused before anything is stored or decoded.
    const svgReport = await send(`${base}/report/create`, { json: { ...owner, image: SVG_BOMB.toString('base64') } });
    expect(svgReport.status).toBe(415);
    expect(svgReport.body).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', error: expect.stringContaining('JPEG, PNG and WebP') });
    const listed = await send(`${base}/report/list-reports`, { json: owner });
    expect((listed.body as { reports: unknown[] }).reports).toEqual([]);

    const fillers = ['127.0.0.2', '127.0.0.3', '127.0.0.4'].map((address) =>
      postFrom(address, `${base}/api/face-check`, heavy, 'image/png'),
    );
    for (let tries = 0; tries < 800 && (await metric(base, 'analysis_queue_saturated')) !== 1; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const [busyCheck, busyReport, ready, live] = await Promise.all([
      postFrom('127.0.0.5', `${base}/api/face-check`, datasetFace(1), 'image/jpeg'),
      send(`${base}/report/create`, { json: { ...owner, image: datasetFace(2).toString('base64') } }),
      http(`${base}/readyz`),
      http(`${base}/healthz`),
    ]);
    expect(busyCheck.status).toBe(503);
    expect(busyCheck.body).toEqual({ error: expect.stringContaining('try again'), code: 'SERVICE_UNAVAILABLE' });
    expect(Number(busyCheck.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(busyReport.status).toBe(503);
    expect((busyReport.body as ApiError).code).toBe('SERVICE_UNAVAILABLE');
    expect(Number(busyReport.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(ready.status).toBe(200);
    expect(readinessSchema.parse(ready.body)).toEqual({ status: 'ok', checks: { database: 'ok' }, degraded: ['analysis_queue'] });
    expect(live.status).toBe(200);

    // The fillers get their verdicts (no face in grey), then the queue has room and the report goes through.
    expect((await Promise.all(fillers)).map((answer) => answer.status)).toEqual([422, 422, 422]);
    expect(await metric(base, 'analysis_queue_saturated')).toBe(0);
    expect(((await http(`${base}/readyz`)).body as { degraded?: string[] }).degraded).toBeUndefined();
    const accepted = await send(`${base}/report/create`, { json: { ...owner, image: datasetFace(2).toString('base64') } });
    expect(accepted.status, accepted.text).toBe(200);
    expect((accepted.body as ReportCreateResponse).status).toBe('pending');
  }, 90_000);
});
