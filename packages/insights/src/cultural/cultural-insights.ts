import { InsightsError } from '../errors';
import { heritageGroupIdSchema, type CulturalInsight } from '../schemas';
import { CULTURAL_INSIGHTS } from './cultural-content';

export { CULTURAL_INSIGHTS };

/**
 * Cultural context for the report's groups, in the order asked, each with its sources.
 * Unknown ids throw `UNKNOWN_HERITAGE_GROUP`; duplicates are answered once.
 *
 * @example culturalInsights(['east_asian'])[0].languages
 */
export function culturalInsights(groupIds: readonly string[]): CulturalInsight[] {
  const answered: CulturalInsight[] = [];
  for (const groupId of groupIds) {
    const parsed = heritageGroupIdSchema.safeParse(groupId);
    if (!parsed.success) throw new InsightsError('UNKNOWN_HERITAGE_GROUP', `Unknown heritage group: ${groupId}`, { cause: parsed.error });
    const insight = CULTURAL_INSIGHTS.find((candidate) => candidate.id === parsed.data);
    if (insight && !answered.includes(insight)) answered.push(insight);
  }
  return answered;
}
