import { describe, expect, it } from 'vitest';
import type { ReportResult } from './reports';
import {
  HERITAGE_PALETTE,
  heritageColour,
  reliabilityBand,
  resemblanceConclusion,
  shownGroups,
  topEstimateOf,
  topEstimateSentence,
} from './heritage-wording';
import type { HeritageEstimate } from './reports';

/** The estimate: Black 98 % (reliable), White 1 % with a reliability of 0, the rest 0 %. */
const estimate: HeritageEstimate = {
  groups: [
    { id: 'white', label: 'White', share: 1, probability: 0.012, confidence: 0 },
    { id: 'black', label: 'Black', share: 98, probability: 0.981, confidence: 0.93 },
    { id: 'indian', label: 'Indian', share: 1, probability: 0.006, confidence: 0.45 },
    { id: 'east_asian', label: 'East Asian', share: 0, probability: 0.001, confidence: 0 },
  ],
  top: 'black',
  confidenceLevel: 'high',
  uncertain: false,
  display: 'fine',
  coarse: { groups: [{ id: 'african', label: 'African', members: ['black'], share: 98, probability: 0.98 }], top: 'african' },
  disclaimer: 'An estimate of visual resemblance.',
};

describe('one wording for the report, its PDF and the home card (ADR 148)', () => {
  it('says reliability as a band, never a percentage, so a 1% group is not shown with "reliability 0%"', () => {
    const groups = shownGroups(estimate);
    expect(groups.map((group) => `${group.label} ${group.share}%: ${group.uncertainty}`)).toEqual([
      'Black 98%: high reliability',
      'White 1%: low reliability',
      'Indian 1%: medium reliability',
    ]);
    for (const group of groups) expect(group.uncertainty).not.toMatch(/\d/);
  });

  it('bands reliability at 0.7 and 0.4', () => {
    expect([0.7, 0.69, 0.4, 0.39, 0].map(reliabilityBand)).toEqual(['high', 'medium', 'medium', 'low', 'low']);
  });

  it('leaves out groups under 1%: nothing is said about them', () => {
    expect(shownGroups(estimate).map((group) => group.id)).not.toContain('east_asian');
  });

  it('names the top group with the visual-resemblance wording everywhere, the home card included', () => {
    expect(resemblanceConclusion(estimate)).toBe('Your face most resembles the Black group (98% visual resemblance, high reliability).');
    // The home card and the history read the summary's top estimate: the same sentence, reliability included.
    expect(topEstimateSentence(topEstimateOf({ heritage: estimate } as ReportResult))).toBe(resemblanceConclusion(estimate));
    expect(resemblanceConclusion({ ...estimate, display: 'coarse', confidenceLevel: 'medium' })).toBe(
      'Your face most resembles the broader African group (98% visual resemblance, medium confidence).',
    );
    expect(topEstimateSentence({ label: 'Black', share: 40, display: 'uncertain', uncertainty: null })).toBe(
      resemblanceConclusion({ ...estimate, display: 'uncertain' }),
    );
  });

  it('the coarse view lists the broader groups with the estimate’s confidence', () => {
    expect(shownGroups({ ...estimate, display: 'coarse', confidenceLevel: 'medium' })).toEqual([
      { id: 'african', label: 'African', share: 98, uncertainty: 'medium confidence' },
    ]);
  });

  it('colours groups by rank from one palette', () => {
    expect(heritageColour(0)).toBe(HERITAGE_PALETTE[0]);
    expect(heritageColour(HERITAGE_PALETTE.length)).toBe(HERITAGE_PALETTE[0]);
    expect(new Set(HERITAGE_PALETTE).size).toBe(7);
  });
});
