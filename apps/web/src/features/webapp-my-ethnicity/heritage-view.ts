import type { HeritageEstimate } from '@roots/contracts/reports';
import type { TFunction } from 'i18next';
import type { DiagramGroup } from './ethnicity-diagram';

/**
 * The groups the report shows, strongest first, each with the words for its uncertainty: the
 * coarse groups with the estimate's confidence level when the estimate is shown coarse, otherwise
 * the fine groups with their reliability (how often such a share was right on held-out faces).
 */
export function diagramGroupsOf(heritage: HeritageEstimate, t: TFunction): DiagramGroup[] {
  if (heritage.display === 'coarse') {
    const level = t(`webapp.myEthnicity.conclusion.levels.${heritage.confidenceLevel}`);
    return [...heritage.coarse.groups]
      .sort((a, b) => b.share - a.share)
      .map((group) => ({
        id: group.id,
        label: group.label,
        share: group.share,
        uncertainty: t('webapp.myEthnicity.uncertainty.level', { level }),
      }));
  }
  return [...heritage.groups]
    .sort((a, b) => b.share - a.share || b.probability - a.probability)
    .map((group) => ({
      id: group.id,
      label: group.label,
      share: group.share,
      uncertainty: t('webapp.myEthnicity.uncertainty.reliability', { percent: Math.round(group.confidence * 100) }),
    }));
}

/** The Ethnicity Conclusion sentence: the top group, the top broader group, or an honest 'uncertain'. */
export function conclusionOf(heritage: HeritageEstimate, t: TFunction): string {
  if (heritage.display === 'uncertain') return t('webapp.myEthnicity.conclusion.uncertain');
  if (heritage.display === 'coarse') {
    const top = heritage.coarse.groups.find((group) => group.id === heritage.coarse.top);
    if (top) return t('webapp.myEthnicity.conclusion.coarse', { group: top.label, share: top.share });
  }
  const top = heritage.groups.find((group) => group.id === heritage.top);
  return top
    ? t('webapp.myEthnicity.conclusion.fine', { group: top.label, share: top.share })
    : t('webapp.myEthnicity.conclusion.uncertain');
}
