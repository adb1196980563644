import { z } from 'zod';
import { FACE_CHECK_ERROR_CODES, faceBoxSchema, MAX_SELFIE_BYTES } from './face-check';
import { FACE_REGION_IDS } from './face-regions';
import { culturalInsightSchema, heritageGroupIdSchema, populationInsightsSchema } from './insights';
import { MESSAGES } from './messages';

/**
 * Wire formats of the report service (product-spec §3 Report, §7 report service): create, list,
 * get, link to a user, and the PDF report. All POST with JSON bodies.
 *
 * Lifecycle (apps/server `report-state.ts`, ADR 060):
 * ```
 * pending ─claimed→ processing ─analysed→ completed
 *                   processing ─rejected→ failed      (no face, not an image, …; `error` says why)
 * pending|processing ─timed_out→ expired              (REPORT_PROCESSING_TIMEOUT_MS; e.g. a crash)
 * ```
 * `completed`, `failed` and `expired` are final. The photo exists only in the memory of the call
 * that analyses it: a report holds derived results only, nothing that rebuilds the face.
 */

export const REPORT_STATUSES = ['pending', 'processing', 'completed', 'failed', 'expired'] as const;
export const reportStatusSchema = z.enum(REPORT_STATUSES);
export type ReportStatus = z.infer<typeof reportStatusSchema>;

/** `extended`: heritage, traits, attributions, cultural and population insights. `population`: heritage and population insights. */
export const REPORT_KINDS = ['extended', 'population'] as const;
export const reportKindSchema = z.enum(REPORT_KINDS);
export type ReportKind = z.infer<typeof reportKindSchema>;

/** Longest base64 text of a photo: MAX_SELFIE_BYTES encoded, plus room for a `data:image/...;base64,` prefix. */
export const MAX_REPORT_IMAGE_BASE64_CHARS = Math.ceil(MAX_SELFIE_BYTES / 3) * 4 + 64;

const emailSchema = z.email().max(254);
const subscriptionIdSchema = z.uuid();
const reportIdSchema = z.uuid();
/** A signed-in user's id (identity id until real sign-in lands; ADR 033). */
export const reportUserIdSchema = z.string().regex(/^[A-Za-z0-9_:.-]{1,160}$/, 'is not a user id');

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

const EMAIL_NEEDS_SUBSCRIPTION = { message: 'email needs subscription_id', path: ['subscription_id'] };

/**
 * POST /report/create and POST /pdf-report/create. `image` is the selfie as base64 (a `data:` URL
 * is accepted too). Two kinds of caller:
 * - the funnel names the purchase, `subscription_id` with its `email`, from the browser that paid
 *   (or its signed-in owner; ADR 085);
 * - the signed-in app sends no `email`: the session proves who asks (ADR 075), and the report is
 *   made under `subscription_id` when it names one of the user's own purchases, else under the
 *   user's newest live purchase that includes reports (ADR 145: a report for every payer).
 *
 * Either way the purchase (or one of its add-ons) must hold live report access. `face`, from a group
 * photo's face check, names the face to analyse; the others are ignored (ADR 192).
 */
export const reportCreateRequestSchema = z
  .object({
    email: emailSchema.optional(),
    subscription_id: subscriptionIdSchema.optional(),
    image: z.string().min(1).max(MAX_REPORT_IMAGE_BASE64_CHARS),
    kind: reportKindSchema.default('extended'),
    face: faceBoxSchema.optional(),
  })
  .refine((body) => body.email === undefined || body.subscription_id !== undefined, EMAIL_NEEDS_SUBSCRIPTION);
export type ReportCreateRequest = z.input<typeof reportCreateRequestSchema>;

/**
 * Who asks, in the funnel: the purchase and its email. Knowing a subscription id together with its
 * email is the proof of ownership there. The signed-in area sends no email: the session is the
 * proof (ADR 075), and the server applies the one ownership rule of ADR 071.
 */
export const reportRequesterSchema = z.object({ subscription_id: subscriptionIdSchema, email: emailSchema });
export type ReportRequester = z.infer<typeof reportRequesterSchema>;

/**
 * POST /report/list-reports: newest first. With `email`, the reports of that purchase's email;
 * without, the signed-in user's own reports (of `subscription_id` only, when given).
 */
export const reportListRequestSchema = z
  .object({ subscription_id: subscriptionIdSchema.optional(), email: emailSchema.optional() })
  .refine((body) => body.email === undefined || body.subscription_id !== undefined, EMAIL_NEEDS_SUBSCRIPTION);
export type ReportListRequest = z.infer<typeof reportListRequestSchema>;

/** POST /report/get-report: `report_id`, plus the purchase (`subscription_id` and `email`) when not signed in. */
export const reportGetRequestSchema = z
  .object({ report_id: reportIdSchema, subscription_id: subscriptionIdSchema.optional(), email: emailSchema.optional() })
  .refine((body) => (body.email === undefined) === (body.subscription_id === undefined), {
    message: 'subscription_id and email go together',
    path: ['email'],
  });
export type ReportGetRequest = z.infer<typeof reportGetRequestSchema>;

/** Longest feedback text (product-spec §3 Feedback: free text). */
export const MAX_REPORT_FEEDBACK_CHARS = 2_000;

/**
 * The answer to 'Do these results look correct?' and the feedback screen's text, about one report
 * of the subscription. A later answer replaces an earlier one.
 */
export const reportFeedbackSchema = z.object({
  report_id: reportIdSchema,
  looks_correct: z.boolean(),
  text: z.string().trim().max(MAX_REPORT_FEEDBACK_CHARS, { error: MESSAGES.maxLength }).optional(),
});
export type ReportFeedback = z.infer<typeof reportFeedbackSchema>;

/**
 * POST /report/update (signed in only): links the subscription's reports to the session's user
 * (`userId` must be that user) and, with `feedback`, records the user's feedback on one of them.
 * `email` is optional: the session proves ownership.
 */
export const reportUpdateRequestSchema = z.object({
  subscription_id: subscriptionIdSchema,
  userId: reportUserIdSchema,
  email: emailSchema.optional(),
  feedback: reportFeedbackSchema.optional(),
});
export type ReportUpdateRequest = z.infer<typeof reportUpdateRequestSchema>;

/**
 * POST /pdf-report/content: the PDF (application/pdf) of one completed report, by default the
 * newest completed report of the requester (the purchase, or the signed-in user without `email`).
 */
export const pdfReportContentRequestSchema = z
  .object({ report_id: reportIdSchema.optional(), subscription_id: subscriptionIdSchema.optional(), email: emailSchema.optional() })
  .refine((body) => (body.email === undefined) === (body.subscription_id === undefined), {
    message: 'subscription_id and email go together',
    path: ['email'],
  });
export type PdfReportContentRequest = z.infer<typeof pdfReportContentRequestSchema>;

// ---------------------------------------------------------------------------------------------
// Report content
// ---------------------------------------------------------------------------------------------

export const heritageGroupShareSchema = z.object({
  id: heritageGroupIdSchema,
  label: z.string(),
  /** Integer percent; all groups sum to 100. */
  share: z.number().int().min(0).max(100),
  /** Calibrated probability 0..1. */
  probability: z.number().min(0).max(1),
  /** How often a group given this much probability was right on held-out faces, 0..1. */
  confidence: z.number().min(0).max(1),
});

export const coarseGroupShareSchema = z.object({
  id: z.string(),
  label: z.string(),
  members: z.array(heritageGroupIdSchema),
  share: z.number().int().min(0).max(100),
  probability: z.number().min(0).max(1),
});

/** The heritage-resemblance estimate with its uncertainty (packages/analysis MODEL_CARD.md). */
export const heritageEstimateSchema = z.object({
  groups: z.array(heritageGroupShareSchema),
  top: heritageGroupIdSchema,
  confidenceLevel: z.enum(['high', 'medium', 'low']),
  uncertain: z.boolean(),
  /** What the UI shows: the fine groups, the coarse groups, or "uncertain". */
  display: z.enum(['fine', 'coarse', 'uncertain']),
  coarse: z.object({ groups: z.array(coarseGroupShareSchema), top: z.string() }),
  disclaimer: z.string(),
});
export type HeritageEstimate = z.infer<typeof heritageEstimateSchema>;

export { FACE_REGION_IDS, FACE_REGION_TEMPLATE, type FaceRegionId, type TemplatePolygon } from './face-regions';
export const faceRegionIdSchema = z.enum(FACE_REGION_IDS);

export const reportTraitSchema = z.object({
  id: z.string(),
  /** Category in plain words, e.g. "Wide-set". */
  label: z.string(),
  /** Where this face falls among the reference faces, 0..1. */
  value: z.number().min(0).max(1),
  description: z.string(),
  /** The landmark region that supports the trait. */
  region: z.object({ id: faceRegionIdSchema, label: z.string() }),
});
export type ReportTrait = z.infer<typeof reportTraitSchema>;

export const regionAttributionSchema = z.object({
  id: faceRegionIdSchema,
  label: z.string(),
  /** Share of the total absolute effect, 0..1; all regions sum to 1. */
  weight: z.number(),
  effect: z.number(),
  direction: z.enum(['supports', 'opposes']),
});
export type RegionAttribution = z.infer<typeof regionAttributionSchema>;

export const reportResultSchema = z.object({
  /** The analysis model that produced the estimate, e.g. `roots-heritage-1.0.0+faceres-crop1.2`. */
  modelVersion: z.string(),
  heritage: heritageEstimateSchema,
  /** Empty for `population` reports. */
  traits: z.array(reportTraitSchema),
  /** Null for `population` reports. */
  attributions: z
    .object({ method: z.literal('class-activation'), topGroup: z.string(), regions: z.array(regionAttributionSchema) })
    .nullable(),
  /** The heritage groups the insight sections are about (the shown groups, strongest first). */
  insightGroups: z.array(heritageGroupIdSchema).min(1),
  population: populationInsightsSchema,
  /** Empty for `population` reports. */
  culturalInsights: z.array(culturalInsightSchema),
});
export type ReportResult = z.infer<typeof reportResultSchema>;

// ---------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------

/** Why a report failed: the analysis engine's code and its user-facing message. */
export const reportFailureSchema = z.object({
  code: z.enum([...FACE_CHECK_ERROR_CODES, 'INTERNAL']),
  message: z.string(),
});
export type ReportFailure = z.infer<typeof reportFailureSchema>;

export const reportSchema = z.object({
  report_id: reportIdSchema,
  subscription_id: subscriptionIdSchema,
  userId: z.string().nullable(),
  kind: reportKindSchema,
  status: reportStatusSchema,
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
  /** Set once the report is completed. */
  result: reportResultSchema.nullable(),
  /** Set once the report failed. */
  error: reportFailureSchema.nullable(),
});
export type Report = z.infer<typeof reportSchema>;

/** Answer of /report/create and /pdf-report/create: the new report (status `pending`); poll get-report. */
export const reportCreateResponseSchema = z.object({ report_id: reportIdSchema, status: reportStatusSchema });
export type ReportCreateResponse = z.infer<typeof reportCreateResponseSchema>;

/**
 * The strongest group of a completed report, as the report shows it: the top fine group, the top
 * coarse group (`display: coarse`), or the top fine group of an estimate shown as uncertain.
 */
export const reportTopEstimateSchema = z.object({
  label: z.string(),
  share: z.number().int().min(0).max(100),
  display: z.enum(['fine', 'coarse', 'uncertain']),
  /** How sure the estimate of this group is, as the report lists it ('high reliability', 'low confidence'); null when uncertain. */
  uncertainty: z.string().nullable(),
});
export type ReportTopEstimate = z.infer<typeof reportTopEstimateSchema>;

/** One row of /report/list-reports: the report without its content, plus its top estimate (null until completed). */
export const reportSummarySchema = reportSchema.omit({ result: true }).extend({ top_estimate: reportTopEstimateSchema.nullable() });
export type ReportSummary = z.infer<typeof reportSummarySchema>;

/** Answer of /report/list-reports: summaries without results (fetch one with get-report). */
export const reportListResponseSchema = z.object({
  reports: z.array(reportSummarySchema),
});
export type ReportListResponse = z.infer<typeof reportListResponseSchema>;

/** Answer of /report/get-report. */
export const reportGetResponseSchema = z.object({ report: reportSchema });
export type ReportGetResponse = z.infer<typeof reportGetResponseSchema>;

/** Answer of /report/update: how many reports are now linked to the user, and whether feedback was recorded. */
export const reportUpdateResponseSchema = z.object({ updated: z.number().int().min(0), feedback_saved: z.boolean() });
export type ReportUpdateResponse = z.infer<typeof reportUpdateResponseSchema>;

/** Final statuses: polling may stop. */
export function isFinalReportStatus(status: ReportStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'expired';
}

/** Suggested interval between get-report polls while a report is pending or processing. */
export const REPORT_POLL_INTERVAL_MS = 1_000;
