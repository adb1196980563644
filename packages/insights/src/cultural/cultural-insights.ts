import { knownHeritageGroups } from '../heritage-groups';
import type { CulturalInsight } from '../schemas';
import { CULTURAL_INSIGHTS } from './cultural-content';

export { CULTURAL_INSIGHTS };

/**
 * Cultural context for the report's groups, in the order asked, each with its sources.
 * Unknown ids throw `UNKNOWN_HERITAGE_GROUP`; duplicates are answered once.
 *
 * @example culturalInsights(['east_asian'])[0].languages
 */
export function culturalInsights(groupIds: readonly string[]): CulturalInsight[] {
  return knownHeritageGroups(groupIds).flatMap((id) => CULTURAL_INSIGHTS.find((insight) => insight.id === id) ?? []);
}
