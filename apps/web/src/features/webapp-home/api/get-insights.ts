import {
  biorhythmChartSchema,
  horoscopeResponseSchema,
  populationInsightsSchema,
  type BiorhythmChart,
  type HeritageGroupId,
  type HoroscopeResponse,
  type PopulationInsights,
} from '@roots/contracts/insights';
import { reportGetResponseSchema } from '@roots/contracts/reports';
import { getJson, postParsed } from '../../../lib/fetch-json';

/** Days the home's biorhythm chart covers, today first. */
export const BIORHYTHM_CHART_DAYS = 30;

/** `YYYY-MM-DD` of the reader's local calendar day, `offsetDays` from `now`. */
export function localCalendarDate(now: Date = new Date(), offsetDays = 0): string {
  const day = new Date(now.getFullYear(), now.getMonth(), now.getDate() + offsetDays);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}

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

/** GET /api/insights/horoscope: today's reading for the sign of the birth date (and time). */
export function getHoroscope(birthDate: string, birthTime: string | null, signal?: AbortSignal): Promise<HoroscopeResponse> {
  const query = new URLSearchParams({ date: localCalendarDate(), birthDate });
  if (birthTime) query.set('birthTime', birthTime.slice(0, 5));
  return getJson(`/api/insights/horoscope?${query}`, horoscopeResponseSchema, signal);
}

/** GET /api/insights/population for a report's heritage groups. */
export function getPopulation(groups: readonly HeritageGroupId[], signal?: AbortSignal): Promise<PopulationInsights> {
  return getJson(`/api/insights/population?${new URLSearchParams({ groups: groups.join(',') })}`, populationInsightsSchema, signal);
}

/** The heritage groups a completed report's insight sections are about, with their labels (POST /report/get-report). */
export async function getInsightGroups(reportId: string, signal?: AbortSignal): Promise<Array<{ id: HeritageGroupId; label: string }>> {
  const { report } = await postParsed('/report/get-report', { report_id: reportId }, reportGetResponseSchema, signal);
  const result = report.result;
  if (!result) return [];
  return result.insightGroups.map((id) => ({ id, label: result.heritage.groups.find((group) => group.id === id)?.label ?? id }));
}
