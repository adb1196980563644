import type { PlanCatalog } from '@roots/contracts';
import { errorFromResponse } from './http';

/**
 * GET /api/plans: the configured catalog, for the paywall and the offers page. Not parsed with its
 * schema on purpose: the paywall's first paint carries no zod (ADR 081).
 */
export async function getPlans(signal?: AbortSignal): Promise<PlanCatalog> {
  const response = await fetch('/api/plans', { signal: signal ?? null });
  if (!response.ok) throw await errorFromResponse(response);
  return (await response.json()) as PlanCatalog;
}
