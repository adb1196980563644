import { cleanup, render, screen, within } from '@testing-library/preact';
import type { PopulationInsights } from '@roots/contracts/insights';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { createI18n } from '../../lib/i18n';
import { PopulationFigures } from './population-figures';

const GROUP: PopulationInsights['groups'][number] = {
  id: 'east_asian',
  regions: [
    { name: 'Eastern Asia', population: 1_650_000_000, year: 2023 },
    { name: 'Northern America', population: 24_500_000, year: 2021 },
  ],
  topCountries: [{ name: 'China', population: 1_410_000_000, year: 2023 }],
  caveat: 'Groups are approximations of census categories.',
};

function renderFigures(props: { headingLevel: 3 | 4; showYear?: boolean }) {
  return render(
    <I18nextProvider i18n={createI18n('Roots')}>
      <PopulationFigures group={GROUP} {...props} />
    </I18nextProvider>,
  );
}

afterEach(cleanup);

describe('PopulationFigures', () => {
  it('lists regions and countries under headings of the given level, with compact counts and the caveat', () => {
    renderFigures({ headingLevel: 4 });
    expect(screen.getAllByRole('heading', { level: 4 }).map((heading) => heading.textContent)).toEqual([
      'By world region',
      'Largest countries',
    ]);
    const [regions, countries] = screen.getAllByRole('list');
    expect(
      within(regions!)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Eastern Asia: 1.7B people', 'Northern America: 24.5M people']);
    expect(
      within(countries!)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['China: 1.4B people']);
    expect(screen.getByText(GROUP.caveat)).toBeTruthy();
  });

  it('names each region figure’s year when asked (the /population screen)', () => {
    renderFigures({ headingLevel: 3, showYear: true });
    expect(screen.getAllByRole('heading', { level: 3 })).toHaveLength(2);
    expect(screen.getAllByRole('listitem')[0]!.textContent).toBe('Eastern Asia: 1.7B people (2023)');
    expect(screen.getAllByRole('listitem')[2]!.textContent).toBe('China: 1.4B people');
  });
});
