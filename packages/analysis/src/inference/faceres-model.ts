import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type FusionReport, type GraphModelFiles, fuseGraph } from './graph-fusion.js';
import type { GraphModel, TfNamespace } from './runtime.js';

/** The 7 x 7 x 1024 map before pooling (read for class-activation attributions). */
export const FEATURE_MAP_NODE = 'conv_pw_13_relu/clip_by_value';
/** The pooled 1024-d descriptor the heritage head reads. */
export const DESCRIPTOR_NODE = 'global_pooling/Mean';
export const FACERES_OUTPUTS = [FEATURE_MAP_NODE, DESCRIPTOR_NODE] as const;

export interface FaceresModel {
  model: GraphModel;
  /** What fusing changed; undefined when the graph was loaded as shipped. */
  fusion?: FusionReport;
}

/**
 * Loads Human's `faceres.json`. By default the graph is fused and pruned to the two outputs we
 * read (see graph-fusion.ts); `fused: false` loads it exactly as shipped, which tests use to check
 * that both compute the same descriptor.
 *
 * @example
 * const { model } = await loadFaceres(human.tf, humanModelsDir());
 * const [map, descriptor] = model.execute(crop, [...FACERES_OUTPUTS]);
 */
export async function loadFaceres(tf: TfNamespace, modelsDir: string, options: { fused?: boolean } = {}): Promise<FaceresModel> {
  const jsonPath = path.join(modelsDir, 'faceres.json');
  if (options.fused === false) return { model: await tf.loadGraphModel(pathToFileURL(jsonPath).href) };
  const json = JSON.parse(await readFile(jsonPath, 'utf8')) as GraphModelFiles['json'];
  const shards = await Promise.all(
    json.weightsManifest.flatMap((group) => group.paths).map((shard) => readFile(path.join(modelsDir, shard))),
  );
  const weightData = shards.length === 1 ? shards[0]! : Buffer.concat(shards);
  const { artifacts, report } = fuseGraph({ json, weightData }, FACERES_OUTPUTS);
  const model = await tf.loadGraphModel({ load: async () => artifacts });
  releaseWeightBuffer(model);
  return { model, fusion: report };
}

/**
 * A tfjs GraphModel keeps the artifacts it was loaded from (for `save()`), including the weight
 * buffer, after copying the weights into tensors. We never save, so we drop that buffer: 7 MB of
 * JS memory for faceres, 2 MB for Human's detector and mesh.
 */
export function releaseWeightBuffer(model: unknown): void {
  const artifacts = (model as { artifacts?: { weightData?: unknown } } | undefined)?.artifacts;
  if (artifacts && 'weightData' in artifacts) delete artifacts.weightData;
}
