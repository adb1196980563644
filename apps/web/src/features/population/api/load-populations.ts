import { HERITAGE_GROUP_IDS, populationInsightsSchema, type PopulationInsights } from '@roots/contracts/insights';
import { getJson } from '../../../lib/api-client';

/** `GET /api/insights/population` for every group the report can name. */
export function loadPopulations(signal: AbortSignal): Promise<PopulationInsights> {
  return getJson(`/api/insights/population?groups=${HERITAGE_GROUP_IDS.join(',')}`, populationInsightsSchema, signal);
}
