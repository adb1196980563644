import { z } from 'zod';

export const healthSchema = z.object({ status: z.literal('ok') });
export const readinessSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  checks: z.record(z.string(), z.enum(['ok', 'failed'])),
  /**
   * What still serves but is saturated (e.g. `analysis_queue`: new photos get 503 + Retry-After).
   * The server stays ready for everything else (checkout, accounts); an orchestrator or an alert
   * reads this, or the `*_saturated` gauges, to add capacity (ADR 165).
   */
  degraded: z.array(z.string()).optional(),
});
export type Readiness = z.infer<typeof readinessSchema>;
