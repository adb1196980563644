import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { createI18n } from '../../lib/i18n';
import { SectionCarousel, wrapIndex, type CarouselSection } from './section-carousel';

const SECTIONS: CarouselSection[] = [
  { id: 'myEthnicity', title: 'My Ethnicity', panel: <p>latest report</p> },
  { id: 'biorhythm', title: 'Biorhythm', panel: <p>chart</p> },
  { id: 'horoscope', title: 'Daily Horoscope', panel: <p>reading</p> },
  { id: 'population', title: 'Population', panel: <p>figures</p> },
];

/** The carousel with its selection held by a parent, as the home screen holds it in the query. */
function Harness({ initial = 'myEthnicity' }: { initial?: string }) {
  const [selected, setSelected] = useState(initial);
  return <SectionCarousel sections={SECTIONS} selectedId={selected} onSelect={setSelected} label="Sections of your Roots" />;
}

function renderCarousel(initial?: string) {
  return render(
    <I18nextProvider i18n={createI18n('Roots')}>
      <Harness initial={initial} />
    </I18nextProvider>,
  );
}

const turnsOf = () => Number(screen.getByRole('tablist').getAttribute('data-turns'));
const selectedTab = () => screen.getByRole('tab', { selected: true });

afterEach(cleanup);

describe('SectionCarousel', () => {
  it('is a labelled tab list with the tip, one tab per section and the selected section as its panel', () => {
    renderCarousel();
    expect(screen.getByText('Rotate circles and tap to select section')).toBeDefined();
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual(['My Ethnicity', 'Biorhythm', 'Daily Horoscope', 'Population']);
    expect(screen.getByRole('tablist', { name: 'Sections of your Roots' })).toBeDefined();
    expect(selectedTab().textContent).toBe('My Ethnicity');
    const panel = screen.getByRole('tabpanel');
    expect(panel.getAttribute('aria-labelledby')).toBe(selectedTab().id);
    expect(selectedTab().getAttribute('aria-controls')).toBe(panel.id);
    expect(panel.textContent).toContain('latest report');
    expect(tabs.map((tab) => tab.tabIndex)).toEqual([0, -1, -1, -1]);
  });

  it('turns with the arrow keys, selecting and focusing the next section, and wraps around the ring', () => {
    renderCarousel();
    const first = selectedTab();
    first.focus();
    fireEvent.keyDown(first, { key: 'ArrowRight' });
    expect(selectedTab().textContent).toBe('Biorhythm');
    expect(document.activeElement).toBe(selectedTab());
    expect(screen.getByRole('tabpanel').textContent).toContain('chart');
    expect(turnsOf()).toBe(-1);
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowLeft' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowLeft' });
    expect(selectedTab().textContent).toBe('Population');
    expect(document.activeElement).toBe(selectedTab());
    // Turning back past the first keeps turning the same way (no spin the long way round).
    expect(turnsOf()).toBe(1);
    fireEvent.keyDown(document.activeElement!, { key: 'Home' });
    expect(selectedTab().textContent).toBe('My Ethnicity');
    fireEvent.keyDown(document.activeElement!, { key: 'End' });
    expect(selectedTab().textContent).toBe('Population');
    expect(screen.getAllByRole('tab').map((tab) => tab.tabIndex)).toEqual([-1, -1, -1, 0]);
  });

  it('selects a tapped circle, turning the short way; the turn buttons and a swipe rotate too', () => {
    renderCarousel();
    fireEvent.click(screen.getByRole('tab', { name: 'Population' }));
    expect(selectedTab().textContent).toBe('Population');
    expect(turnsOf()).toBe(1);
    fireEvent.click(screen.getByRole('button', { name: 'Next section' }));
    expect(selectedTab().textContent).toBe('My Ethnicity');
    fireEvent.click(screen.getByRole('button', { name: 'Previous section' }));
    expect(selectedTab().textContent).toBe('Population');
    const stage = screen.getByTestId('carousel-stage');
    fireEvent.pointerDown(stage, { clientX: 200 });
    fireEvent.pointerUp(stage, { clientX: 100 });
    expect(selectedTab().textContent).toBe('My Ethnicity');
    fireEvent.pointerDown(stage, { clientX: 100 });
    fireEvent.pointerUp(stage, { clientX: 120 });
    expect(selectedTab().textContent).toBe('My Ethnicity');
  });

  it('starts on a section another screen asked for', () => {
    renderCarousel('biorhythm');
    expect(selectedTab().textContent).toBe('Biorhythm');
    expect(turnsOf()).toBe(-1);
  });

  it('wraps indexes both ways', () => {
    expect(wrapIndex(3, 1, 4)).toBe(0);
    expect(wrapIndex(0, -1, 4)).toBe(3);
    expect(wrapIndex(1, 6, 4)).toBe(3);
  });
});
