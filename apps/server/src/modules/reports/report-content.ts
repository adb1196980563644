import type { AnalysisResult } from '@roots/analysis';
import type { HeritageGroupId } from '@roots/contracts/insights';
import { reportResultSchema, type HeritageEstimate, type ReportKind, type ReportResult } from '@roots/contracts/reports';
import { culturalInsights, populationInsights } from '@roots/insights';

/** A group is named in the insight sections when its share is at least this (percent). */
export const INSIGHT_GROUP_MIN_SHARE = 15;
/** At most this many groups get population and cultural sections. */
export const MAX_INSIGHT_GROUPS = 3;

/**
 * The heritage groups the insight sections talk about, strongest first. With a confident estimate
 * (`display: fine`) these are the groups with a real share; otherwise the members of the top
 * coarse group, so an uncertain estimate is never narrowed to one group by the content.
 */
export function insightGroupsOf(heritage: HeritageEstimate): HeritageGroupId[] {
  const byShare = [...heritage.groups].sort((a, b) => b.share - a.share || b.probability - a.probability);
  if (heritage.display === 'fine') {
    const strong = byShare.filter((group) => group.share >= INSIGHT_GROUP_MIN_SHARE).slice(0, MAX_INSIGHT_GROUPS);
    return strong.length > 0 ? strong.map((group) => group.id) : [heritage.top];
  }
  const coarseTop = heritage.coarse.groups.find((group) => group.id === heritage.coarse.top);
  const members = new Set<string>(coarseTop?.members ?? [heritage.top]);
  const ordered = byShare.filter((group) => members.has(group.id)).map((group) => group.id);
  return ordered.length > 0 ? ordered : [heritage.top];
}

/**
 * What a report keeps from one analysis: the estimate with its uncertainty, traits and
 * attributions by region id, the model version, and the insight content. Dropped on purpose:
 * the face box, the quality measures and every landmark polygon — nothing here locates or
 * outlines the person's face (ADR 060). Validated against the contract before it is stored.
 */
export function buildReportResult(analysis: AnalysisResult, kind: ReportKind): ReportResult {
  const heritage: HeritageEstimate = {
    groups: analysis.heritage.groups.map(({ id, label, share, probability, confidence }) => ({
      id,
      label,
      share,
      probability,
      confidence,
    })),
    top: analysis.heritage.top,
    confidenceLevel: analysis.heritage.confidenceLevel,
    uncertain: analysis.heritage.uncertain,
    display: analysis.heritage.display,
    coarse: {
      top: analysis.heritage.coarse.top,
      groups: analysis.heritage.coarse.groups.map(({ id, label, members, share, probability }) => ({
        id,
        label,
        members,
        share,
        probability,
      })),
    },
    disclaimer: analysis.heritage.disclaimer,
  };
  const insightGroups = insightGroupsOf(heritage);
  const extended = kind === 'extended';
  return reportResultSchema.parse({
    modelVersion: analysis.modelVersion,
    heritage,
    traits: extended
      ? analysis.traits.map(({ id, label, value, description, region }) => ({
          id,
          label,
          value,
          description,
          region: { id: region.id, label: region.label },
        }))
      : [],
    attributions: extended
      ? {
          method: analysis.attributions.method,
          topGroup: analysis.attributions.topGroup,
          regions: analysis.attributions.regions.map(({ id, label, weight, effect, direction }) => ({
            id,
            label,
            weight,
            effect,
            direction,
          })),
        }
      : null,
    insightGroups,
    population: populationInsights(insightGroups),
    culturalInsights: extended ? culturalInsights(insightGroups) : [],
  });
}
