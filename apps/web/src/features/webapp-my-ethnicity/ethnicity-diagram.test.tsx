import { HERITAGE_PALETTE } from '@roots/contracts/heritage-wording';
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { createI18n } from '../../lib/i18n';
import { ringSegments, rotationTowards } from './diagram-geometry';
import { EthnicityDiagram, type DiagramGroup } from './ethnicity-diagram';

const GROUPS: DiagramGroup[] = [
  { id: 'east_asian', label: 'East Asian', share: 50, uncertainty: 'high reliability' },
  { id: 'southeast_asian', label: 'Southeast Asian', share: 25, uncertainty: 'medium reliability' },
  { id: 'indian', label: 'Indian', share: 25, uncertainty: 'low reliability' },
  { id: 'white', label: 'White', share: 0, uncertainty: 'low reliability' },
];

function renderDiagram(groups = GROUPS) {
  return render(
    <I18nextProvider i18n={createI18n('Roots')}>
      <EthnicityDiagram groups={groups} />
    </I18nextProvider>,
  );
}

const rotationOf = (container: Element) => Number(container.querySelector('[data-rotation]')!.getAttribute('data-rotation'));

afterEach(cleanup);

describe('ring geometry', () => {
  it('lays shares clockwise from the top and skips empty groups', () => {
    expect(ringSegments(GROUPS)).toEqual([
      { id: 'east_asian', startDeg: 0, endDeg: 180, midDeg: 90 },
      { id: 'southeast_asian', startDeg: 180, endDeg: 270, midDeg: 225 },
      { id: 'indian', startDeg: 270, endDeg: 360, midDeg: 315 },
    ]);
  });

  it('turns the short way to bring a segment under the marker', () => {
    expect(rotationTowards(0, 90)).toBe(-90);
    expect(rotationTowards(0, 300)).toBe(60);
    // From -90 (first segment on top) to the segment at 315°: +135°, not -225°.
    expect(rotationTowards(-90, 315)).toBe(45);
  });
});

describe('EthnicityDiagram', () => {
  it('names every group with its share and uncertainty and starts on the strongest', () => {
    const { container } = renderDiagram();
    const options = screen.getAllByRole('radio');
    expect(options.map((option) => option.getAttribute('aria-label'))).toEqual([
      'East Asian: 50% visual resemblance, high reliability',
      'Southeast Asian: 25% visual resemblance, medium reliability',
      'Indian: 25% visual resemblance, low reliability',
    ]);
    expect(screen.getByRole('radio', { checked: true })).toHaveProperty('textContent', expect.stringContaining('East Asian'));
    expect(screen.getByRole('radiogroup')).toBeDefined();
    expect(rotationOf(container)).toBe(-90);
    expect(container.querySelectorAll('[data-testid="ethnicity-segment"]')).toHaveLength(3);
    // The one palette of every report view, by rank (the PDF draws the same; ADR 148).
    expect([...container.querySelectorAll('[data-testid="ethnicity-segment"]')].map((segment) => segment.getAttribute('fill'))).toEqual(
      HERITAGE_PALETTE.slice(0, 3),
    );
  });

  it('selects a tapped segment and turns the ring to it', () => {
    const { container } = renderDiagram();
    fireEvent.click(container.querySelector('[data-group="indian"]')!);
    expect(screen.getByRole('radio', { name: /^Indian/ }).getAttribute('aria-checked')).toBe('true');
    expect(screen.getByRole('radio', { name: /^East Asian/ }).getAttribute('aria-checked')).toBe('false');
    expect(rotationOf(container)).toBe(45);
    expect(container.querySelector('[data-group="indian"]')!.getAttribute('class')).toBe('is-selected');
    expect(screen.getByText('Selected: Indian, 25%')).toBeDefined();
  });

  it('moves the selection and focus with arrow keys, Home and End, wrapping around', () => {
    const { container } = renderDiagram();
    const first = screen.getByRole('radio', { name: /^East Asian/ });
    first.focus();
    fireEvent.keyDown(first, { key: 'ArrowRight' });
    const second = screen.getByRole('radio', { name: /^Southeast Asian/ });
    expect(second.getAttribute('aria-checked')).toBe('true');
    expect(document.activeElement).toBe(second);
    expect(second.tabIndex).toBe(0);
    expect(first.tabIndex).toBe(-1);
    expect(rotationOf(container)).toBe(-225);
    fireEvent.keyDown(second, { key: 'End' });
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: /^Indian/ }));
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(first);
    expect(first.getAttribute('aria-checked')).toBe('true');
    fireEvent.keyDown(first, { key: 'ArrowLeft' });
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: /^Indian/ }));
    fireEvent.keyDown(document.activeElement!, { key: 'Home' });
    expect(document.activeElement).toBe(first);
  });
});

describe('the label inside the ring (issue 35)', () => {
  it('fits a long group name inside the hole instead of running over the ring', () => {
    const long = 'Middle Eastern and North African';
    const { container } = renderDiagram([{ id: 'middle_eastern', label: long, share: 100, uncertainty: 'high reliability' }]);
    const label = container.querySelector('.ethnicity-diagram__label')!;
    expect(label.textContent).toBe(long);
    // Drawn no wider than the hole's chord at its line (radius 58, 20 below the centre).
    expect(Number(label.getAttribute('textLength'))).toBeLessThanOrEqual(2 * Math.sqrt(58 ** 2 - 20 ** 2));
    expect(label.getAttribute('lengthAdjust')).toBe('spacingAndGlyphs');
  });

  it('leaves a short name as it is', () => {
    const { container } = renderDiagram();
    expect(container.querySelector('.ethnicity-diagram__label')!.getAttribute('textLength')).toBeNull();
  });
});
