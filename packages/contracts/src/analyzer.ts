import { z } from 'zod';
import { FACE_CHECK_ERROR_CODES, faceBoxSchema, MAX_CHOOSABLE_FACES } from './face-check';

/**
 * The analyzer service (apps/analyzer): `POST /v1/analyze` and `POST /v1/check` take the photo's
 * bytes as the request body (`application/octet-stream`) and answer the engine's outcome as JSON.
 * The photo is never logged, stored or queued on either side. The query parameter `face`
 * (`FACE_BOX_PARAM`, `faceBoxParamSchema`) names the face to analyse in a group photo (ADR 192).
 */
export const ANALYZER_ANALYZE_PATH = '/v1/analyze';
export const ANALYZER_CHECK_PATH = '/v1/check';
/**
 * Header naming the shopper a photo comes from (an opaque digest of their address, set by the
 * server): the analyzer's queue gives each such client a fair share (ADR 165). Without it the
 * calling server is the client.
 */
export const ANALYZER_CLIENT_HEADER = 'x-roots-client';

/**
 * The engine's failure: a photo problem (the face-check codes) or the engine's own fault. A code,
 * never text: the caller picks the words from `ANALYSIS_ERROR_MESSAGES` (ADR 133).
 */
export const analyzerFailureSchema = z.object({
  ok: z.literal(false),
  code: z.enum([...FACE_CHECK_ERROR_CODES, 'INTERNAL']),
  cause: z.string().max(500).optional(),
  /** With MULTIPLE_FACES only: the faces to choose from, left to right (ADR 192). */
  faces: z.array(faceBoxSchema).max(MAX_CHOOSABLE_FACES).optional(),
});

/** A usable face: box fractions and quality measures (the face check's answer). */
export const analyzerCheckSuccessSchema = z.object({
  ok: z.literal(true),
  face: z.object({
    box: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }),
    detectionScore: z.number(),
  }),
  quality: z.record(z.string(), z.number()),
});

/**
 * A full analysis. The estimate, traits and attributions are checked field by field where the server
 * stores them (`reportResultSchema` validates the report built from them); here their shape is
 * required to be objects and arrays so a wrong answer fails before it reaches that point.
 */
export const analyzerAnalysisSuccessSchema = analyzerCheckSuccessSchema.extend({
  modelVersion: z.string().min(1),
  heritage: z.looseObject({}),
  traits: z.array(z.looseObject({})),
  attributions: z.looseObject({}),
});

export const analyzerCheckOutcomeSchema = z.discriminatedUnion('ok', [analyzerCheckSuccessSchema, analyzerFailureSchema]);
export const analyzerAnalysisOutcomeSchema = z.discriminatedUnion('ok', [analyzerAnalysisSuccessSchema, analyzerFailureSchema]);

/**
 * 503 of a full or draining analyzer, 429 of a client holding its share of the queue (both with a
 * `retry-after` header in seconds).
 */
export const analyzerBusySchema = z.object({ error: z.string(), code: z.enum(['SERVICE_UNAVAILABLE', 'RATE_LIMITED']) });
