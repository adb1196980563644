import { culturalInsightsResponseSchema, type CulturalInsight, type HeritageGroupId } from '@roots/contracts/insights';
import { getJson } from '../../../lib/api-client';

/** GET /api/insights/cultural for a report's insight groups. */
export async function getCulturalInsights(groups: readonly HeritageGroupId[], signal?: AbortSignal): Promise<CulturalInsight[]> {
  const query = new URLSearchParams({ groups: groups.join(',') });
  return (await getJson(`/api/insights/cultural?${query}`, culturalInsightsResponseSchema, signal)).insights;
}
