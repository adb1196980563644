import {
  biorhythmChartSchema,
  populationInsightsSchema,
  type BiorhythmChart,
  type HeritageGroupId,
  type PopulationInsights,
} from '@roots/contracts/insights';
import { getJson } from '../../../lib/api-client';
import { getReport, localCalendarDate } from '../../../lib/webapp-api';

/** Days the home's biorhythm chart covers, today first. */
export const BIORHYTHM_CHART_DAYS = 30;

/** GET /api/insights/biorhythm: the three primary cycles from today for BIORHYTHM_CHART_DAYS days. */
export function getBiorhythm(birthDate: string, signal?: AbortSignal): Promise<BiorhythmChart> {
  const now = new Date();
  const query = new URLSearchParams({
    birthDate,
    from: localCalendarDate(now),
    to: localCalendarDate(now, BIORHYTHM_CHART_DAYS - 1),
    cycles: 'physical,emotional,intellectual',
  });
  return getJson(`/api/insights/biorhythm?${query}`, biorhythmChartSchema, signal);
}

/** GET /api/insights/population for a report's heritage groups. */
export function getPopulation(groups: readonly HeritageGroupId[], signal?: AbortSignal): Promise<PopulationInsights> {
  return getJson(`/api/insights/population?${new URLSearchParams({ groups: groups.join(',') })}`, populationInsightsSchema, signal);
}

/** The heritage groups a completed report's insight sections are about, with their labels (POST /report/get-report). */
export async function getInsightGroups(reportId: string, signal?: AbortSignal): Promise<Array<{ id: HeritageGroupId; label: string }>> {
  const { result } = await getReport(reportId, signal);
  if (!result) return [];
  return result.insightGroups.map((id) => ({ id, label: result.heritage.groups.find((group) => group.id === id)?.label ?? id }));
}
