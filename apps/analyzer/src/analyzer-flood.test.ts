import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';
import { createAnalysisPool, type AnalysisPool } from '@roots/analysis';
import { ANALYZER_CHECK_PATH, ANALYZER_CLIENT_HEADER } from '@roots/contracts/analyzer';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAnalyzerApp } from './analyzer-app';
import { loadAnalyzerConfig } from './config';

/**
 * Issue 32 on the analyzer service (apps/analyzer) with its real engine, one worker: SVG bombs are
 * refused before decoding, a flood of real photos holds only its client's share, a full analyzer
 * answers 503 with retry-after and says so on /readyz.
 */

const DATASET = fileURLToPath(new URL('../../../packages/analysis/data/fairface-dev', import.meta.url));
/** The n-th photo of the dev set (CC BY 4.0, packages/analysis/data/fairface-dev/SOURCES.md); the first rows hold one usable face. */
function datasetFace(index: number): Buffer {
  const rows = readFileSync(join(DATASET, 'labels.csv'), 'utf8').trim().split('\n').slice(1);
  return readFileSync(join(DATASET, rows[index % rows.length]!.split(',')[0]!));
}

const SVG_BOMB = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="6000" height="6000"><filter id="b"><feGaussianBlur stdDeviation="300"/></filter>' +
    '<rect width="6000" height="6000" fill="#808080" filter="url(#b)"/></svg>',
);

/** A flat grey PNG of `side` × `side` (36 MP at 6000: under the limit, a second or more of decoding). */
function greyPng(side: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const framed = Buffer.alloc(body.length + 8);
    framed.writeUInt32BE(data.length, 0);
    body.copy(framed, 4);
    framed.writeUInt32BE(crc32(body), body.length + 4);
    return framed;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.writeUInt8(8, 8); // bit depth; colour type 0 (grey)
  const rows = Buffer.alloc((side + 1) * side, 0x77);
  for (let y = 0; y < side; y++) rows[y * (side + 1)] = 0; // filter byte of each row
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

type Answer = { status: number; retryAfter: string | undefined; body: { ok?: boolean; code?: string } };

/** POSTs a photo to the analyzer's check from a loopback address, naming a client when given. */
function check(base: string, photo: Buffer, from: { address?: string; client?: string }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      `${base}${ANALYZER_CHECK_PATH}`,
      {
        method: 'POST',
        agent: false,
        ...(from.address ? { localAddress: from.address } : {}),
        headers: {
          'content-type': 'application/octet-stream',
          'content-length': photo.length,
          ...(from.client ? { [ANALYZER_CLIENT_HEADER]: from.client } : {}),
        },
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const retryAfter = answer.headers['retry-after'];
          resolve({
            status: answer.statusCode ?? 0,
            retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
          });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(photo);
  });
}

async function metric(base: string, name: string, labels = ''): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  let total = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith(`${name}{`) && line.includes(labels)) total += Number(line.split(' ').at(-1));
  }
  return total;
}

describe('issue 32 on the analyzer service: SVG bombs, photo floods and a full queue', () => {
  // One worker, eight waiting, three places a client: room for the fairness below to show.
  const config = loadAnalyzerConfig({ ANALYZER_WORKERS: '1', ANALYZER_MAX_QUEUE: '8', ANALYZER_QUEUE_PER_CLIENT: '3' });
  let pool: AnalysisPool;
  let app: ReturnType<typeof buildAnalyzerApp>;
  let base: string;

  beforeAll(async () => {
    pool = createAnalysisPool({ size: 1 });
    app = buildAnalyzerApp({
      engine: pool,
      queue: { concurrency: config.workers, maxWaiting: config.maxQueue, perClient: config.perClient },
      logger: pino({ level: 'silent' }),
    });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
    await pool.warmUp();
    app.analyzer.markReady();
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    await pool?.close();
  });

  it('40 SVG bombs from two addresses are refused before decoding; a selfie from a third gets its verdict', async () => {
    const decodedBefore = await metric(base, 'analyzer_engine_photos_total');
    const bombs = ['127.0.0.2', '127.0.0.3'].flatMap((address) => Array.from({ length: 20 }, () => check(base, SVG_BOMB, { address })));
    const selfie = await check(base, datasetFace(0), { address: '127.0.0.4' });
    const refused = await Promise.all(bombs);
    expect(selfie.status).toBe(200);
    expect(selfie.body.ok).toBe(true);
    expect(refused.map((answer) => answer.status)).toEqual(Array.from({ length: 40 }, () => 415));
    expect(refused[0]?.body).toMatchObject({ ok: false, code: 'UNSUPPORTED_IMAGE_FORMAT' });
    expect((await metric(base, 'analyzer_engine_photos_total')) - decodedBefore).toBe(1);
    expect(await metric(base, 'analyzer_images_refused_total', 'code="UNSUPPORTED_IMAGE_FORMAT"')).toBe(40);
  }, 60_000);

  it('the shoppers the server names share the queue fairly: a flood holds three places, a selfie is next in turn', async () => {
    const finished: string[] = [];
    const send = (client: string, name: string, photo: Buffer) =>
      check(base, photo, { client }).then((answer) => {
        if (answer.status === 200) finished.push(name);
        return answer;
      });
    // Two shoppers behind one server: the analyzer tells them apart by x-roots-client, not by the server's address.
    const flood = ['flooder-one-key', 'flooder-two-key'].flatMap((client) =>
      Array.from({ length: 6 }, (_, n) => send(client, `${client}-${n}`, datasetFace(1 + n))),
    );
    for (let tries = 0; tries < 400 && (await metric(base, 'analyzer_rejected_total', 'reason="share"')) < 6; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const before = finished.length;
    const selfie = await send('shopper-key-0001', 'selfie', datasetFace(0));
    const ahead = finished.indexOf('selfie') - before;
    const answers = await Promise.all(flood);
    expect(selfie.status).toBe(200);
    expect(selfie.body.ok).toBe(true);
    for (const half of [answers.slice(0, 6), answers.slice(6)]) {
      expect(half.filter((answer) => answer.status === 200)).toHaveLength(3);
      const told = half.filter((answer) => answer.status === 429);
      expect(told).toHaveLength(3);
      expect(told.every((answer) => answer.body.code === 'RATE_LIMITED' && Number(answer.retryAfter) >= 1)).toBe(true);
    }
    expect(ahead).toBeLessThanOrEqual(3);
  }, 90_000);

  it('defaults: a quarter of the places a client; a share larger than the analyzer does not start', () => {
    expect(loadAnalyzerConfig({ ANALYZER_WORKERS: '1' })).toMatchObject({ maxQueue: 4, perClient: 1 });
    expect(loadAnalyzerConfig({ ANALYZER_WORKERS: '4' })).toMatchObject({ maxQueue: 16, perClient: 5 });
    expect(() => loadAnalyzerConfig({ ANALYZER_WORKERS: '1', ANALYZER_QUEUE_PER_CLIENT: '6' })).toThrow(/ANALYZER_QUEUE_PER_CLIENT/);
  });

  it('full: 503 with retry-after, /readyz not ready with the queue degraded, /healthz still ok', async () => {
    const heavy = greyPng(6000);
    // Nine places in all (one running, eight waiting): three clients take three each.
    const fillers = Array.from({ length: 9 }, (_, n) => check(base, heavy, { client: `filler-key-000${n % 3}` }));
    for (let tries = 0; tries < 800 && (await metric(base, 'analyzer_queue_saturated')) !== 1; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const [busy, ready, live] = await Promise.all([
      check(base, datasetFace(2), { client: 'late-shopper-key' }),
      fetch(`${base}/readyz`),
      fetch(`${base}/healthz`),
    ]);
    expect(busy.status).toBe(503);
    expect(busy.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(Number(busy.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({
      status: 'unavailable',
      checks: { models: 'ok', accepting: 'ok', queue: 'failed' },
      degraded: ['queue'],
    });
    expect(live.status).toBe(200);
    expect((await Promise.all(fillers)).map((answer) => answer.body.code)).toEqual(Array.from({ length: 9 }, () => 'NO_FACE'));
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
  }, 120_000);
});
