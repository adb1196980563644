import { z } from 'zod';

/** Funnel events (product-spec §3, §7): the attribution record, event bodies and purchase names. */

/** Purchase event names of product-spec §3. */
export const PURCHASE_EVENT_NAMES = [
  'CompleteRegistration',
  'Purchase',
  'AllPurchase',
  'One-timePurchase',
  'Full plan sale purchase',
] as const;
export type PurchaseEventName = (typeof PURCHASE_EVENT_NAMES)[number];

/**
 * The name of the row `POST /subscriptions/{id}` records: a tracked visit reporting its own purchase
 * (plan or pack). The funnel's purchase step counts these, one per visit (docs/metrics.md).
 */
export const TRACKED_PURCHASE_EVENT = 'subscription-tracking';

/** The funnel's landing variants: the walkthrough (`/{slug}/`) and the quiz (`/{slug}/quiz`). */
export const FUNNEL_VARIANTS = ['walkthrough', 'quiz'] as const;
export type FunnelVariant = (typeof FUNNEL_VARIANTS)[number];

/**
 * The visit an event belongs to (issue 25): an id the page draws once per browser session and the
 * landing variant the visit started in, both kept for the whole visit (a reload keeps them).
 */
export const visitSchema = z.object({ id: z.uuid(), variant: z.enum(FUNNEL_VARIANTS) });
export type Visit = z.infer<typeof visitSchema>;

const field = z.string().max(2000);

/** Attribution record of product-spec §3; `project` is the product slug. */
export const attributionSchema = z
  .object({
    project: z.string().max(100),
    campaign_id: field,
    campaign_name: field,
    adset_id: field,
    adset_name: field,
    ad_id: field,
    ad_name: field,
    media_source: field,
    config: field,
    country_code: field,
    fbc: field,
    fbp: field,
    referer: field,
    event_source_url: field,
    client_user_agent: field,
    client_ip_address: field,
    idfm: field,
  })
  .partial();
export type Attribution = z.infer<typeof attributionSchema>;

/**
 * Drops empty values (product-spec §3: "Empty values are dropped before sending").
 * @example compactAttribution({ ad_id: '', fbp: 'x' }) // { fbp: 'x' }
 */
export function compactAttribution(record: Attribution | undefined): Attribution {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(record ?? {})) {
    if (typeof value === 'string' && value.trim() !== '') out[key] = value;
  }
  return out as Attribution;
}

/**
 * Event value: 75% of the amount, rounded to 2 decimals (product-spec §9).
 * @example eventValue(24.99) // 18.74
 */
export function eventValue(amount: number): number {
  return Math.round((amount * 0.75 + Number.EPSILON) * 100) / 100;
}

/** `POST /event` (product-spec §7): userAgent, event, campaign, and ip and country data. */
export const eventRequestSchema = z.object({
  /** A funnel stage; never a purchase event name: the server records those once, with the payment it verified. */
  event: z
    .string()
    .min(1)
    .max(120)
    .refine((name) => !(PURCHASE_EVENT_NAMES as readonly string[]).includes(name), {
      error: 'purchase events are recorded by the server with the purchase',
    }),
  userAgent: z.string().max(1000).optional(),
  campaign: attributionSchema.optional(),
  ip: z.string().max(64).optional(),
  country: z.string().max(64).optional(),
  value: z.number().min(0).max(1_000_000).optional(),
  subscription_id: z.uuid().optional(),
  visit: visitSchema.optional(),
});
export type EventRequest = z.infer<typeof eventRequestSchema>;

/** `GET /remote-addr`: the caller's ip and country (ISO 3166-1 alpha-2, or '' when unknown). */
export const remoteAddrResponseSchema = z.object({ ip: z.string(), country: z.string() });
export type RemoteAddrResponse = z.infer<typeof remoteAddrResponseSchema>;

export const eventAcceptedSchema = z.object({ ok: z.literal(true), id: z.string() });
