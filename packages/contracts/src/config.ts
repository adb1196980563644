import { z } from 'zod';

/** Marketing copy; the defaults are the claims product-spec §1 requires. */
export const productCopySchema = z.object({
  headline: z.string(),
  discountClaim: z.string(),
  trialClaim: z.string(),
  guaranteeClaim: z.string(),
  guaranteeText: z.string(),
  renewalClaim: z.string(),
  usersClaim: z.string(),
  privacyClaim: z.string(),
  biometricClaim: z.string(),
});
export type ProductCopy = z.infer<typeof productCopySchema>;

/** The configuration the web client is allowed to see (served in the HTML and at /api/config). */
export const publicConfigSchema = z.object({
  slug: z.string(),
  productName: z.string(),
  version: z.string(),
  copy: productCopySchema,
  /** Origin of the payment gateway (secure fields, hosted pages). */
  gatewayOrigin: z.string(),
  trackingEnabled: z.boolean(),
  /** Days after a charge within which the money-back guarantee refunds it; 0 = no guarantee. */
  guaranteeDays: z.number().int().min(0),
  links: z.object({ cookies: z.string(), privacy: z.string(), terms: z.string() }),
  /** Who the legal pages name as operator and contact (white-label). */
  legal: z.object({ operatorName: z.string(), operatorAddress: z.string().nullable(), contactEmail: z.string() }),
  /**
   * Base URLs of the subscription service (product-spec §7): staging for a page whose origin
   * contains 'dev', production otherwise; '' is the page's own origin. Absent: always this origin.
   */
  subscriptionApi: z.object({ production: z.string(), staging: z.string() }).optional(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;

/** Product slugs: lower-case letters, digits and hyphens; they appear in URLs and plan ids. */
export const productSlugSchema = z
  .string()
  .regex(/^[a-z][a-z0-9-]{1,30}$/, 'must be 2-31 lower-case letters, digits or hyphens, starting with a letter');
