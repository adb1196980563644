import { FACE_REGION_TEMPLATE, type ReportTrait } from '@roots/contracts/reports';
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { createI18n } from '../../lib/i18n';
import { FacialTraits } from './facial-traits';

const TRAITS: ReportTrait[] = [
  {
    id: 'eye_spacing',
    label: 'Wide-set eyes',
    value: 0.81,
    description: 'The eyes sit further apart than in most reference faces.',
    region: { id: 'eyes', label: 'Eyes' },
  },
  {
    id: 'nose_width',
    label: 'Narrow nose',
    value: 0.2,
    description: 'The nose is narrower than in most reference faces.',
    region: { id: 'nose', label: 'Nose' },
  },
  {
    id: 'jaw_width',
    label: 'Broad jaw',
    value: 0.66,
    description: 'The jaw is broader than in most reference faces.',
    region: { id: 'jaw', label: 'Jaw' },
  },
];

function renderTraits(traits = TRAITS) {
  return render(
    <I18nextProvider i18n={createI18n('Roots')}>
      <FacialTraits traits={traits} />
    </I18nextProvider>,
  );
}

afterEach(cleanup);

describe('FacialTraits', () => {
  it('draws the face outline and every supporting region from the template, the first trait’s region highlighted', () => {
    renderTraits();
    const figure = screen.getByRole('img');
    expect(figure.getAttribute('aria-label')).toBe(
      'Schematic face with the Eyes region highlighted, which supports the trait Wide-set eyes',
    );
    for (const region of ['eyes', 'nose', 'jaw'] as const) {
      const shapes = figure.querySelector(`g.facial-traits__region:not(.facial-traits__region--selected)[data-region="${region}"]`);
      expect(shapes, region).not.toBeNull();
      expect(shapes!.querySelectorAll('polygon')).toHaveLength(FACE_REGION_TEMPLATE[region].length);
    }
    const selected = figure.querySelector('.facial-traits__region--selected')!;
    expect(selected.getAttribute('data-region')).toBe('eyes');
    // Two eyes: two outlines, at the template's coordinates scaled to the 100-unit view box.
    const [left] = selected.querySelectorAll('polygon');
    expect(left!.getAttribute('points')).toBe(
      FACE_REGION_TEMPLATE.eyes[0]!.map(([x, y]) => `${(x * 100).toFixed(1)},${(y * 100).toFixed(1)}`).join(' '),
    );
    expect(figure.querySelector('.facial-traits__outline')).not.toBeNull();
  });

  it('highlights the region of the trait the user picks and describes it', () => {
    renderTraits();
    fireEvent.click(screen.getByRole('button', { name: /Broad jaw/ }));
    expect(screen.getByRole('button', { name: /Broad jaw/ }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: /Wide-set eyes/ }).getAttribute('aria-pressed')).toBe('false');
    const figure = screen.getByRole('img');
    expect(figure.querySelector('.facial-traits__region--selected')!.getAttribute('data-region')).toBe('jaw');
    expect(figure.getAttribute('aria-label')).toContain('Jaw region');
    expect(screen.getByText('The jaw is broader than in most reference faces.')).toBeDefined();
    expect(screen.getByText('Compared with reference faces: more marked than in 66% of them')).toBeDefined();
  });

  it('says so when a report has no traits', () => {
    renderTraits([]);
    expect(screen.getByText('This report kind has no facial traits.')).toBeDefined();
    expect(screen.queryByRole('img')).toBeNull();
  });
});
