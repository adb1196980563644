import { InsightsError } from './errors';
import { heritageGroupIdSchema, type HeritageGroupId } from './schemas';

/**
 * The report groups a caller asked about, once each, in the order first asked.
 * Unknown ids throw `UNKNOWN_HERITAGE_GROUP`.
 *
 * @example knownHeritageGroups(['indian', 'white', 'indian']) // ['indian', 'white']
 */
export function knownHeritageGroups(groupIds: readonly string[]): HeritageGroupId[] {
  const ids = new Set<HeritageGroupId>();
  for (const groupId of groupIds) {
    const parsed = heritageGroupIdSchema.safeParse(groupId);
    if (!parsed.success) throw new InsightsError('UNKNOWN_HERITAGE_GROUP', `Unknown heritage group: ${groupId}`, { cause: parsed.error });
    ids.add(parsed.data);
  }
  return [...ids];
}
