import { z } from 'zod';

/**
 * Wire formats of the insights endpoints (`/api/insights/*`) and of the insight sections inside a
 * report. The shapes are the ones `@roots/insights` returns (moved here per ADR 020; that
 * package's `schemas.ts` re-exports this file). Dates are `YYYY-MM-DD` read as UTC calendar days.
 */

export const calendarDateSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD');

/** The seven visual-resemblance groups of the heritage report (not ancestries). */
export const HERITAGE_GROUP_IDS = [
  'white',
  'black',
  'latino_hispanic',
  'east_asian',
  'southeast_asian',
  'indian',
  'middle_eastern',
] as const;
export const heritageGroupIdSchema = z.enum(HERITAGE_GROUP_IDS);
export type HeritageGroupId = z.infer<typeof heritageGroupIdSchema>;

/** The names the report and every screen give the seven groups (one place: issue 33). */
export const HERITAGE_GROUP_LABELS = {
  white: 'White',
  black: 'Black',
  latino_hispanic: 'Latino/Hispanic',
  east_asian: 'East Asian',
  southeast_asian: 'Southeast Asian',
  indian: 'Indian',
  middle_eastern: 'Middle Eastern',
} as const satisfies Record<HeritageGroupId, string>;

// ── Horoscope ────────────────────────────────────────────────────────────────

/** Tropical zodiac signs in ecliptic order: sign i covers ecliptic longitude [30·i°, 30·(i+1)°). */
export const ZODIAC_SIGNS = [
  'aries',
  'taurus',
  'gemini',
  'cancer',
  'leo',
  'virgo',
  'libra',
  'scorpio',
  'sagittarius',
  'capricorn',
  'aquarius',
  'pisces',
] as const;
export const zodiacSignSchema = z.enum(ZODIAC_SIGNS);
export type ZodiacSign = z.infer<typeof zodiacSignSchema>;

export const MOON_PHASES = [
  'new_moon',
  'waxing_crescent',
  'first_quarter',
  'waxing_gibbous',
  'full_moon',
  'waning_gibbous',
  'last_quarter',
  'waning_crescent',
] as const;
export const moonPhaseSchema = z.enum(MOON_PHASES);
export type MoonPhase = z.infer<typeof moonPhaseSchema>;

export const sunSignResultSchema = z.object({
  sign: zodiacSignSchema,
  /** The Sun's apparent geocentric ecliptic longitude (true equinox of date) at the instant used, degrees [0, 360). */
  sunLongitudeDeg: z.number().min(0).lt(360),
  /** The UTC instant the sign was computed for (ISO 8601). */
  instantUtc: z.string(),
  /** True when no birth time was given and the Sun changed sign during that birth date: the sign is a best guess. */
  onCusp: z.boolean(),
});
export type SunSignResult = z.infer<typeof sunSignResultSchema>;

export const moonContextSchema = z.object({
  /** The sign the Moon is in at 12:00 UTC of the day. */
  sign: zodiacSignSchema,
  phase: moonPhaseSchema,
  /** Sun–Moon elongation angle in degrees [0, 360): 0 new, 90 first quarter, 180 full, 270 last quarter. */
  phaseAngleDeg: z.number().min(0).lt(360),
  /** Illuminated fraction of the disc, 0–100, rounded to whole percent. */
  illuminatedPercent: z.number().int().min(0).max(100),
});
export type MoonContext = z.infer<typeof moonContextSchema>;

export const dailyHoroscopeSchema = z.object({
  sign: zodiacSignSchema,
  date: calendarDateSchema,
  mood: z.string().min(1),
  love: z.string().min(1),
  work: z.string().min(1),
  wellbeing: z.string().min(1),
  luckyNumber: z.number().int().min(1).max(99),
  luckyColour: z.string().min(1),
  moon: moonContextSchema,
  disclaimer: z.string().min(1),
});
export type DailyHoroscope = z.infer<typeof dailyHoroscopeSchema>;

// ── Biorhythm ────────────────────────────────────────────────────────────────

export const BIORHYTHM_CYCLES = ['physical', 'emotional', 'intellectual', 'intuitive', 'aesthetic', 'awareness', 'spiritual'] as const;
export const biorhythmCycleSchema = z.enum(BIORHYTHM_CYCLES);
export type BiorhythmCycle = z.infer<typeof biorhythmCycleSchema>;

export const biorhythmDaySchema = z.object({
  date: calendarDateSchema,
  daysSinceBirth: z.number().int().min(0),
  /** sin(2π·daysSinceBirth/period) per requested cycle, in [-1, 1]. */
  values: z.partialRecord(biorhythmCycleSchema, z.number().min(-1).max(1)),
  /** Cycles whose curve crosses zero during this day (see `isCriticalDay`). */
  criticalCycles: z.array(biorhythmCycleSchema),
});
export type BiorhythmDay = z.infer<typeof biorhythmDaySchema>;

export const biorhythmChartSchema = z.object({
  birthDate: calendarDateSchema,
  cycles: z.array(
    z.object({ cycle: biorhythmCycleSchema, periodDays: z.number().int().positive(), kind: z.enum(['primary', 'secondary']) }),
  ),
  days: z.array(biorhythmDaySchema),
  disclaimer: z.string().min(1),
});
export type BiorhythmChart = z.infer<typeof biorhythmChartSchema>;

// ── Population ───────────────────────────────────────────────────────────────

export const populationFigureSchema = z.object({
  name: z.string().min(1),
  population: z.number().int().positive(),
  year: z.number().int(),
});
export type PopulationFigure = z.infer<typeof populationFigureSchema>;

export const populationSourceSchema = z.object({
  name: z.string().min(1),
  url: z.url(),
  licence: z.string().min(1),
  note: z.string().min(1),
});
export type PopulationSource = z.infer<typeof populationSourceSchema>;

export const populationInsightsSchema = z.object({
  groups: z.array(
    z.object({
      id: heritageGroupIdSchema,
      regions: z.array(populationFigureSchema).min(1),
      topCountries: z.array(populationFigureSchema).min(1),
      caveat: z.string().min(1),
    }),
  ),
  source: populationSourceSchema,
});
export type PopulationInsights = z.infer<typeof populationInsightsSchema>;

// ── Cultural insights ────────────────────────────────────────────────────────

export const referenceSourceSchema = z.object({ name: z.string().min(1), url: z.url() });
export type ReferenceSource = z.infer<typeof referenceSourceSchema>;

export const culturalInsightSchema = z.object({
  id: heritageGroupIdSchema,
  title: z.string().min(1),
  overview: z.string().min(1),
  regions: z.array(z.string().min(1)).min(1),
  languages: z.array(z.string().min(1)).min(1),
  traditions: z.array(z.string().min(1)).min(1),
  cuisine: z.array(z.string().min(1)).min(1),
  diversityNote: z.string().min(1),
  sources: z.array(referenceSourceSchema).min(2),
});
export type CulturalInsight = z.infer<typeof culturalInsightSchema>;

// ── Endpoint queries and answers (GET /api/insights/*) ───────────────────────

/** Comma-separated list in a query string, e.g. `groups=east_asian,indian`. */
const commaList = <T extends z.ZodType<string, string>>(item: T) =>
  z
    .string()
    .transform((text) => [
      ...new Set(
        text
          .split(',')
          .map((part) => part.trim())
          .filter((part) => part.length > 0),
      ),
    ])
    .pipe(z.array(item).min(1).max(7));

/**
 * GET /api/insights/horoscope: the daily reading for a sign, or for the sign of a birth date.
 * `date` is the reader's local calendar day (the browser sends it; the server never guesses).
 * @example /api/insights/horoscope?date=2026-11-21&birthDate=1990-08-05&birthTime=14:30&utcOffsetMinutes=120
 */
export const horoscopeQuerySchema = z
  .object({
    date: calendarDateSchema,
    sign: zodiacSignSchema.optional(),
    birthDate: calendarDateSchema.optional(),
    /** `HH:MM`, local clock time of birth. */
    birthTime: z
      .string()
      .regex(/^\d{2}:\d{2}$/, 'HH:MM')
      .optional(),
    /** Minutes east of UTC at birth (e.g. 120 for UTC+2). */
    utcOffsetMinutes: z.coerce.number().int().min(-840).max(840).optional(),
  })
  .refine((query) => query.sign !== undefined || query.birthDate !== undefined, { message: 'sign or birthDate is required' });
export type HoroscopeQuery = z.infer<typeof horoscopeQuerySchema>;

export const horoscopeResponseSchema = z.object({
  /** Present when the sign came from `birthDate`. */
  sunSign: sunSignResultSchema.nullable(),
  horoscope: dailyHoroscopeSchema,
});
export type HoroscopeResponse = z.infer<typeof horoscopeResponseSchema>;

/**
 * GET /api/insights/biorhythm: at most 366 days; `to` defaults to `from`; `cycles` defaults to
 * the three primary cycles.
 * @example /api/insights/biorhythm?birthDate=1990-08-05&from=2026-11-21&to=2026-12-21&cycles=physical,emotional
 */
export const biorhythmQuerySchema = z.object({
  birthDate: calendarDateSchema,
  from: calendarDateSchema,
  to: calendarDateSchema.optional(),
  cycles: commaList(biorhythmCycleSchema).optional(),
});
export type BiorhythmQuery = z.infer<typeof biorhythmQuerySchema>;

/**
 * GET /api/insights/population and GET /api/insights/cultural: content for heritage groups, usually
 * a report's `insightGroups`.
 * @example /api/insights/population?groups=east_asian,southeast_asian
 */
export const heritageGroupsQuerySchema = z.object({ groups: commaList(heritageGroupIdSchema) });
export type HeritageGroupsQuery = z.infer<typeof heritageGroupsQuerySchema>;

export const culturalInsightsResponseSchema = z.object({ insights: z.array(culturalInsightSchema) });
export type CulturalInsightsResponse = z.infer<typeof culturalInsightsResponseSchema>;
