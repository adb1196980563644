export { createAnalysisPool, type AnalysisPool, type AnalysisPoolOptions } from './pool/pool.js';
export { Analyzer, type AnalysisOutcome, type AnalysisResult, type FaceCheckOutcome, type FaceCheckResult } from './analyzer.js';
export { type AnalysisError, type AnalysisErrorCode, type FaceBox, isAnalysisError } from './errors.js';
export { HERITAGE_GROUP_IDS, HERITAGE_GROUP_LABELS, COARSE_GROUPS, type HeritageGroupId } from './heritage/groups.js';
export type { HeritageEstimate, HeritageGroupShare, CoarseGroupShare, ConfidenceLevel, HeritageDisplay } from './heritage/estimate.js';
export type { Trait, TraitId, TraitRegion } from './traits/traits.js';
export type { Attributions, RegionAttribution } from './attribution/class-activation.js';
export type { FaceQuality } from './face-stage.js';
