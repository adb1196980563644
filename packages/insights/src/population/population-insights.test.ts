import { describe, expect, it } from 'vitest';
import { HERITAGE_GROUP_IDS, populationInsightsSchema } from '../schemas';
import { GROUP_REGIONS } from './group-regions';
import { countryPopulation, populationInsights, POPULATION_DATA_YEAR } from './population-insights';

describe('shipped population data', () => {
  it('has a positive figure for every country a region names', () => {
    for (const [groupId, regions] of Object.entries(GROUP_REGIONS)) {
      for (const region of regions) {
        for (const country of region.countries) {
          expect(countryPopulation(country), `${groupId} / ${region.name} / ${country}`).toBeGreaterThan(0);
        }
      }
    }
  });

  it('names no country twice within a group', () => {
    for (const regions of Object.values(GROUP_REGIONS)) {
      const countries = regions.flatMap((region) => region.countries);
      expect(new Set(countries).size).toBe(countries.length);
    }
  });

  it('matches known World Bank 2018 figures', () => {
    expect(countryPopulation('China')).toBe(1_392_730_000);
    expect(countryPopulation('India')).toBe(1_352_617_328);
    expect(countryPopulation('United States')).toBe(326_687_501);
    expect(countryPopulation('Japan')).toBe(126_529_100);
  });
});

describe('populationInsights', () => {
  const all = populationInsightsSchema.parse(populationInsights(HERITAGE_GROUP_IDS));

  it('answers every group with regions, top countries, a caveat and the source', () => {
    expect(all.groups.map((group) => group.id)).toEqual([...HERITAGE_GROUP_IDS]);
    for (const group of all.groups) {
      expect(group.regions.length).toBeGreaterThan(0);
      expect(group.topCountries.length).toBe(5);
      expect(group.caveat).toMatch(/not a count|total regional populations/i);
      for (const figure of [...group.regions, ...group.topCountries]) {
        expect(figure.population).toBeGreaterThan(0);
        expect(figure.year).toBe(POPULATION_DATA_YEAR);
      }
    }
    expect(all.source.licence).toMatch(/CC BY 4\.0/);
  });

  it('sorts top countries by population, largest first', () => {
    for (const group of all.groups) {
      const figures = group.topCountries.map((country) => country.population);
      expect(figures).toEqual([...figures].sort((left, right) => right - left));
    }
  });

  it.each([
    ['east_asian', 'China'],
    ['indian', 'India'],
    ['southeast_asian', 'Indonesia'],
    ['latino_hispanic', 'Brazil'],
    ['black', 'Nigeria'],
    ['white', 'United States'],
    ['middle_eastern', 'Egypt'],
  ] as const)('lists the most populous country of %s first: %s', (groupId, country) => {
    expect(populationInsights([groupId]).groups[0]?.topCountries[0]?.name).toBe(country);
  });

  it('gives plausible regional totals (2018 world population was about 7.6 billion)', () => {
    const byRegion = new Map(all.groups.flatMap((group) => group.regions.map((region) => [region.name, region.population])));
    const within = (name: string, low: number, high: number): void => {
      expect(byRegion.get(name), name).toBeGreaterThan(low);
      expect(byRegion.get(name), name).toBeLessThan(high);
    };
    within('Europe', 700e6, 780e6);
    within('Northern America', 340e6, 380e6);
    within('Sub-Saharan Africa', 1.0e9, 1.15e9);
    within('Eastern Asia', 1.6e9, 1.7e9);
    within('South-eastern Asia', 630e6, 680e6);
    within('South Asia (Indian subcontinent)', 1.7e9, 1.9e9);
    within('South America', 400e6, 440e6);
    const everything = [...byRegion.values()].reduce((total, population) => total + population, 0);
    expect(everything).toBeLessThan(7.7e9);
  });

  it('answers duplicates once and rejects unknown groups', () => {
    expect(populationInsights(['indian', 'indian']).groups).toHaveLength(1);
    expect(() => populationInsights(['martian'])).toThrow(expect.objectContaining({ code: 'UNKNOWN_HERITAGE_GROUP' }) as Error);
  });
});
