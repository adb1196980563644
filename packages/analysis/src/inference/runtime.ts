import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Minimal view of the parts of Human and tfjs we use. Human's bundled typings describe the whole
 * library; we keep our surface small so upgrades are easy to audit.
 */
export interface Tensor {
  readonly shape: number[];
  data(): Promise<Float32Array | Int32Array | Uint8Array>;
  dispose(): void;
}

export interface GraphModel {
  execute(input: Tensor, outputs?: string | string[]): Tensor | Tensor[];
}

export interface TfNamespace {
  tensor(values: Float32Array | Int32Array | Uint8Array | number[], shape: number[], dtype?: string): Tensor;
  tensor4d(values: Float32Array | Uint8Array, shape: [number, number, number, number], dtype?: string): Tensor;
  dispose(t: Tensor | Tensor[]): void;
  memory(): { numTensors: number; numBytes: number };
  /** A `file://` URL, or an IO handler whose `load()` returns the model's artifacts. */
  loadGraphModel(source: string | { load(): Promise<unknown> }): Promise<GraphModel>;
  /** tfjs's image ops; the engine uses none (tests compare `sampleCrop` with `transform`). */
  image: unknown;
}

export interface HumanFace {
  box: [number, number, number, number];
  score: number;
  /** The detector's (BlazeFace's) own confidence; `score` is the mesh's. */
  boxScore: number;
  mesh: [number, number, number][];
}

export interface HumanResult {
  face: HumanFace[];
}

export interface HumanInstance {
  tf: TfNamespace;
  /** Human keeps the last result (boxes, mesh); we clear it after every call. */
  result: unknown;
  load(): Promise<void>;
  detect(input: Tensor, config?: Record<string, unknown>): Promise<HumanResult & { error?: string | null }>;
  /** `models` maps Human's model names to their loaded tfjs GraphModels (null when not loaded). */
  models: { models: Record<string, unknown> };
}

type HumanConstructor = new (config: Record<string, unknown>) => HumanInstance;

const require = createRequire(import.meta.url);

/** Folder holding Human's shipped models (blazeface, facemesh, faceres). */
export function humanModelsDir(): string {
  return path.resolve(humanDistDir(), '..', 'models');
}

/**
 * Human's `exports` map lists its subpaths without the leading `./`, so Node refuses them; we
 * resolve the package's main entry (dist/human.node.js) and load siblings by absolute path.
 */
function humanDistDir(): string {
  return path.dirname(require.resolve('@vladmandic/human'));
}

/** tfjs-backend-wasm's dist folder, which holds the .wasm binaries (trailing slash required). */
export function wasmBinariesDir(): string {
  const wasmEntry = require.resolve('@tensorflow/tfjs-backend-wasm');
  return path.dirname(wasmEntry) + path.sep;
}

let fetchPatched = false;

/**
 * Human and tfjs load models through `fetch`. Node's fetch does not read `file://` URLs, so we
 * serve them from disk ourselves; every other URL goes to the original fetch.
 */
export function installFileFetch(): void {
  if (fetchPatched) return;
  fetchPatched = true;
  const originalFetch = globalThis.fetch;
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith('file://')) return originalFetch(input, init);
    try {
      const body = await readFile(fileURLToPath(url));
      const contentType = url.endsWith('.json') ? 'application/json' : 'application/octet-stream';
      return new Response(body, { status: 200, headers: { 'content-type': contentType } });
    } catch {
      return new Response(null, { status: 404 });
    }
  };
}

/**
 * Human's detector and mesh gate (it drops the mesh of a face scored below it). Lower than
 * Human's 0.5: FairFace's loose crops have real, usable faces at 0.3-0.5 (see ADR 090).
 */
export const FACE_DETECTION_MIN_CONFIDENCE = 0.3;
/** Faces the detector reports; more than two only matter for telling the largest ones apart. */
export const FACE_DETECTION_MAX_FACES = 5;

/** Human configured for our pipeline: one detector + mesh pass, everything else off. */
export function humanPipelineConfig(modelsDir: string): Record<string, unknown> {
  return {
    backend: 'wasm',
    wasmPath: wasmBinariesDir(),
    modelBasePath: pathToFileURL(modelsDir).href + '/',
    debug: false,
    async: false,
    warmup: 'none',
    cacheSensitivity: 0,
    skipAllowed: false,
    deallocate: true,
    filter: { enabled: false },
    face: {
      enabled: true,
      // Several, so a second whole face (another person) can be told from partial neighbours.
      detector: {
        rotation: false,
        maxDetected: FACE_DETECTION_MAX_FACES,
        minConfidence: FACE_DETECTION_MIN_CONFIDENCE,
        skipFrames: 0,
        skipTime: 0,
        return: false,
      },
      mesh: { enabled: true },
      attention: { enabled: false },
      iris: { enabled: false },
      emotion: { enabled: false },
      description: { enabled: false },
      antispoof: { enabled: false },
      liveness: { enabled: false },
      gear: { enabled: false },
    },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    gesture: { enabled: false },
    segmentation: { enabled: false },
  };
}

export function loadHumanConstructor(): HumanConstructor {
  installFileFetch();
  const humanModule = require(path.join(humanDistDir(), 'human.node-wasm.js')) as {
    Human?: HumanConstructor;
    default?: HumanConstructor;
  };
  const HumanClass = humanModule.Human ?? humanModule.default;
  if (!HumanClass) throw new Error('Human constructor not found in human.node-wasm.js');
  return HumanClass;
}
