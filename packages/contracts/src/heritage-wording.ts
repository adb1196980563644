import type { HeritageEstimate, ReportResult, ReportTopEstimate } from './reports';

// Zod-free on purpose: the web's report screens and the server's PDF both import it (ADR 148).

/**
 * One palette for the resemblance groups, by rank (strongest first), wherever a report is drawn:
 * the ring and swatches of the web report, and the donut, legend and bars of the PDF. Each keeps at
 * least 3:1 contrast against white (WCAG 1.4.11 for graphics).
 */
export const HERITAGE_PALETTE = ['#a8492a', '#1f5f8b', '#5b7f2a', '#7a4a9a', '#b7791f', '#2f7d7a', '#8a3b5a'] as const;

/** The colour of the group at `rank` (0 = strongest). */
export function heritageColour(rank: number): string {
  return HERITAGE_PALETTE[rank % HERITAGE_PALETTE.length]!;
}

/** Groups below this share (a rounded 0 %) are not listed: there is nothing to say about them. */
export const MIN_SHOWN_SHARE = 1;

export type ReliabilityBand = 'high' | 'medium' | 'low';

/**
 * A group's reliability (how often a group given this much weight was the right one on held-out
 * faces, 0..1) said as a band, never as a bare percentage: a '0 %' beside a 1 % group reads as a
 * contradiction, a band does not (ADR 148). High from 0.7, medium from 0.4, low below.
 */
export function reliabilityBand(confidence: number): ReliabilityBand {
  if (confidence >= 0.7) return 'high';
  if (confidence >= 0.4) return 'medium';
  return 'low';
}

/** The strongest group of an estimate, with its uncertainty worded as the report lists it. */
export function topEstimateOfHeritage(heritage: HeritageEstimate): ReportTopEstimate {
  if (heritage.display === 'coarse') {
    const coarse = heritage.coarse.groups.find((group) => group.id === heritage.coarse.top) ?? heritage.coarse.groups[0];
    if (coarse)
      return { label: coarse.label, share: coarse.share, display: 'coarse', uncertainty: `${heritage.confidenceLevel} confidence` };
  }
  const top = heritage.groups.find((group) => group.id === heritage.top) ?? heritage.groups[0];
  const uncertain = heritage.display === 'uncertain';
  return {
    label: top?.label ?? heritage.top,
    share: top?.share ?? 0,
    display: uncertain ? 'uncertain' : 'fine',
    uncertainty: uncertain || !top ? null : `${reliabilityBand(top.confidence)} reliability`,
  };
}

/** A report's top estimate for its summary (`/report/list-reports`, the home card). */
export function topEstimateOf(result: ReportResult): ReportTopEstimate {
  return topEstimateOfHeritage(result.heritage);
}

/** What the report, its PDF and the home card say reliability is. */
export const RELIABILITY_EXPLAINED =
  'Each share is a visual resemblance estimate, not a measure of ancestry. Reliability says how often the model was right on test faces when it gave a group this much weight: high is 7 times in 10 or more, medium 4 in 10 or more, low fewer.';

/** A group as every report view lists it: strongest first, with the words for its uncertainty. */
export type ShownGroup = { id: string; label: string; share: number; uncertainty: string };

/**
 * The groups a report lists, strongest first, each with its uncertainty: the coarse groups with the
 * estimate's confidence level when the estimate is shown coarse, otherwise the fine groups with
 * their reliability band. Groups under MIN_SHOWN_SHARE are left out.
 */
export function shownGroups(heritage: HeritageEstimate): ShownGroup[] {
  if (heritage.display === 'coarse')
    return [...heritage.coarse.groups]
      .filter((group) => group.share >= MIN_SHOWN_SHARE)
      .sort((a, b) => b.share - a.share)
      .map(({ id, label, share }) => ({ id, label, share, uncertainty: `${heritage.confidenceLevel} confidence` }));
  return [...heritage.groups]
    .filter((group) => group.share >= MIN_SHOWN_SHARE)
    .sort((a, b) => b.share - a.share || b.probability - a.probability)
    .map(({ id, label, share, confidence }) => ({ id, label, share, uncertainty: `${reliabilityBand(confidence)} reliability` }));
}

const UNCERTAIN = 'The estimate is uncertain: no single group stands out clearly in your photo.';

/** The one sentence for a report's strongest group, with its uncertainty (report, PDF, home card and history). */
export function topEstimateSentence(top: ReportTopEstimate): string {
  if (top.display === 'uncertain') return UNCERTAIN;
  const broader = top.display === 'coarse' ? 'broader ' : '';
  const uncertainty = top.uncertainty ? `, ${top.uncertainty}` : '';
  return `Your face most resembles the ${broader}${top.label} group (${top.share}% visual resemblance${uncertainty}).`;
}

/** The Ethnicity Conclusion of a report: its top group, its top broader group, or an honest 'uncertain'. */
export function resemblanceConclusion(heritage: HeritageEstimate): string {
  return topEstimateSentence(topEstimateOfHeritage(heritage));
}
