import type { HeritageGroupId, HERITAGE_GROUP_LABELS as CONTRACT_LABELS } from '@roots/contracts/insights';

export type { HeritageGroupId };

/**
 * The contract's seven heritage groups (`HERITAGE_GROUP_IDS` of `@roots/contracts/insights`), in
 * the order of the classifier's outputs and of `models/heritage-head.json`. The list is written
 * out because the built engine runs under plain Node, which cannot load the contracts' TypeScript
 * source at run time; the types here stop compiling if it ever differs from the contract's.
 */
export const HERITAGE_GROUP_IDS = [
  'white',
  'black',
  'latino_hispanic',
  'east_asian',
  'southeast_asian',
  'indian',
  'middle_eastern',
] as const satisfies readonly HeritageGroupId[];

/** Compiles only while every contract group has a classifier output (`never` when none is missing). */
type NoneMissing<Missing extends never> = Missing;
type _EveryContractGroupHasAnOutput = NoneMissing<Exclude<HeritageGroupId, (typeof HERITAGE_GROUP_IDS)[number]>>;

/**
 * The contract's labels (`HERITAGE_GROUP_LABELS` of `@roots/contracts/insights`), written out for the
 * same reason as the ids; `satisfies typeof` the contract's literal types makes any difference in a
 * single letter a compile error.
 */
export const HERITAGE_GROUP_LABELS = {
  white: 'White',
  black: 'Black',
  latino_hispanic: 'Latino/Hispanic',
  east_asian: 'East Asian',
  southeast_asian: 'Southeast Asian',
  indian: 'Indian',
  middle_eastern: 'Middle Eastern',
} as const satisfies typeof CONTRACT_LABELS;

/**
 * Coarse groups shown when the fine estimate is uncertain. They merge the pairs the model
 * confuses most (see MODEL_CARD.md). Every fine group belongs to exactly one coarse group.
 */
export const COARSE_GROUPS = [
  { id: 'european_middle_eastern', label: 'European / Middle Eastern', members: ['white', 'middle_eastern'] },
  { id: 'african', label: 'African', members: ['black'] },
  { id: 'asian', label: 'East & Southeast Asian', members: ['east_asian', 'southeast_asian'] },
  { id: 'south_asian', label: 'South Asian', members: ['indian'] },
  { id: 'latino_hispanic', label: 'Latino/Hispanic', members: ['latino_hispanic'] },
] as const satisfies readonly { id: string; label: string; members: readonly HeritageGroupId[] }[];

export type CoarseGroupId = (typeof COARSE_GROUPS)[number]['id'];

/**
 * Each group's probability: the sum over its member groups of the classifier's probabilities
 * (in {@link HERITAGE_GROUP_IDS} order). The report's coarse shares and the accuracy bench's
 * grouped tasks both read it.
 */
export function groupedProbabilities(
  groups: readonly { members: readonly HeritageGroupId[] }[],
  probabilities: ArrayLike<number>,
): number[] {
  return groups.map((group) => group.members.reduce((sum, id) => sum + probabilities[HERITAGE_GROUP_IDS.indexOf(id)]!, 0));
}
