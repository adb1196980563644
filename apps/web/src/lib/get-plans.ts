import type { PlanCatalog } from '@roots/contracts';
import { errorFromResponse } from '../../../lib/http';

/** GET /api/plans: the configured catalog. */
export async function getPlans(signal?: AbortSignal): Promise<PlanCatalog> {
  const response = await fetch('/api/plans', { signal: signal ?? null });
  if (!response.ok) throw await errorFromResponse(response);
  return (await response.json()) as PlanCatalog;
}
