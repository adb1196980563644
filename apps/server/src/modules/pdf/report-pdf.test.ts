import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HERITAGE_PALETTE, RELIABILITY_EXPLAINED, resemblanceConclusion, shownGroups } from '@roots/contracts/heritage-wording';
import type { Report, ReportResult } from '@roots/contracts/reports';
import { describe, expect, it } from 'vitest';
import { renderReportPdf } from './report-pdf';

/** The report: Black 98 % (reliable), White 1 % with a reliability of 0, East Asian 0 %. */
const result: ReportResult = {
  modelVersion: 'roots-heritage-test',
  heritage: {
    groups: [
      { id: 'black', label: 'Black', share: 98, probability: 0.981, confidence: 0.93 },
      { id: 'white', label: 'White', share: 1, probability: 0.012, confidence: 0 },
      { id: 'indian', label: 'Indian', share: 1, probability: 0.006, confidence: 0.45 },
      { id: 'east_asian', label: 'East Asian', share: 0, probability: 0.001, confidence: 0 },
    ],
    top: 'black',
    confidenceLevel: 'high',
    uncertain: false,
    display: 'fine',
    coarse: { groups: [], top: 'african' },
    disclaimer: 'An estimate of visual resemblance, not ancestry.',
  },
  traits: [],
  attributions: null,
  insightGroups: ['black'],
  population: { groups: [], source: { name: 'UN WPP', url: 'https://population.un.org/wpp/', licence: 'CC BY 3.0 IGO', note: 'n' } },
  culturalInsights: [],
};
const report: Report & { result: ReportResult } = {
  report_id: '0b8c1c43-7e1f-4f51-9f3c-5d0b5b1d2a02',
  subscription_id: '6a1f1c54-8f43-4a43-9d51-6f0d6c2b8a11',
  userId: null,
  kind: 'population',
  status: 'completed',
  created_at: '2026-11-18T09:30:00.000Z',
  updated_at: '2026-11-18T09:30:00.000Z',
  result,
  error: null,
};

/** The rendered PDF's text, and the RGB colours of its first page's pixels. */
async function rendered() {
  const dir = mkdtempSync(join(tmpdir(), 'roots-pdf-unit-'));
  writeFileSync(join(dir, 'report.pdf'), await renderReportPdf(report, { productName: 'Roots' }));
  const text = execFileSync('pdftotext', [join(dir, 'report.pdf'), '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
  // One page as a binary PPM: a header of three lines, then the RGB bytes.
  execFileSync('pdftoppm', ['-r', '40', '-f', '1', '-l', '1', '-singlefile', join(dir, 'report.pdf'), join(dir, 'page')]);
  const ppm = readFileSync(join(dir, 'page.ppm'));
  let offset = 0;
  for (let lines = 0; lines < 3; offset++) if (ppm[offset] === 0x0a) lines++;
  const colours = new Set<string>();
  for (let i = offset; i + 2 < ppm.length; i += 3)
    colours.add(`#${[ppm[i]!, ppm[i + 1]!, ppm[i + 2]!].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`);
  return { text, colours };
}

describe('the PDF says what the web report says (issue 24, ADR 148)', () => {
  it('has the conclusion, every shown group with its reliability band, and never "reliability 0%"', async () => {
    const { text } = await rendered();
    expect(text).toContain(resemblanceConclusion(result.heritage));
    expect(text).toContain(RELIABILITY_EXPLAINED.slice(0, 60));
    for (const group of shownGroups(result.heritage)) expect(text).toContain(`${group.share}% visual resemblance, ${group.uncertainty}`);
    expect(text).toContain('1% visual resemblance, low reliability');
    expect(text).not.toMatch(/reliability \d+ ?%/);
    expect(text).not.toContain('East Asian');
  });

  it('draws the groups in the shared palette', async () => {
    const { colours } = await rendered();
    // The three groups shown: each of their colours fills the donut, legend and bars.
    for (const colour of HERITAGE_PALETTE.slice(0, 3)) expect(colours, colour).toContain(colour);
  });
});
