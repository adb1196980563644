/**
 * One engine in its own process, for cold start, single-core latency and peak RSS.
 * Invoked by bench/analysis.ts; prints one JSON line. Args: roots|human <imagesJsonPath> <humanModelsDir?>
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { Analyzer } from '../src/analyzer.js';
import { humanModelsDir, loadHumanConstructor, wasmBinariesDir } from '../src/inference/runtime.js';

const [engine, imagesPath, gearDir] = process.argv.slice(2);
const images = (JSON.parse(readFileSync(imagesPath!, 'utf8')) as string[]).map((b64) => Buffer.from(b64, 'base64'));
const ROUNDS = 2;

async function measure(run: (bytes: Buffer) => Promise<unknown>, start: number): Promise<void> {
  await run(images[0]!);
  const coldStartMs = performance.now() - start;
  const latenciesMs: number[] = [];
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  for (let round = 0; round < ROUNDS; round++) {
    for (const bytes of images) {
      const t0 = performance.now();
      await run(bytes);
      latenciesMs.push(performance.now() - t0);
    }
  }
  const wallMs = performance.now() - wallBefore;
  const cpu = process.cpuUsage(cpuBefore);
  console.log(
    JSON.stringify({
      coldStartMs,
      latenciesMs,
      wallMs,
      cpuMsPerImage: (cpu.user + cpu.system) / 1000 / latenciesMs.length,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
    }),
  );
}

const start = performance.now();
if (engine === 'roots') {
  const analyzer = await Analyzer.create();
  await measure((bytes) => analyzer.analyze(bytes), start);
} else {
  // Human's default detect(): default config (face detector, mesh, iris, emotion, faceres,
  // body, hand, gestures) plus the GEAR age/gender/race model, on the same wasm backend.
  const Human = loadHumanConstructor();
  const human = new Human({
    backend: 'wasm',
    wasmPath: wasmBinariesDir(),
    modelBasePath: pathToFileURL(humanModelsDir()).href + '/',
    debug: false,
    face: { gear: { enabled: true, modelPath: pathToFileURL(path.join(gearDir!, 'gear.json')).href } },
  });
  await human.load();
  await measure(async (bytes) => {
    const { data, info } = await sharp(bytes).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const input = human.tf.tensor4d(
      new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
      [1, info.height, info.width, 3],
      'int32',
    );
    try {
      return await human.detect(input);
    } finally {
      input.dispose();
    }
  }, start);
}
