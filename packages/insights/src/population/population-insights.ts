import countryPopulations from 'country-json/src/country-by-population.json' with { type: 'json' };
import { knownHeritageGroups } from '../heritage-groups';
import type { PopulationFigure, PopulationInsights, PopulationSource } from '../schemas';
import { GROUP_CAVEATS, GROUP_REGIONS } from './group-regions';

/**
 * The year of the shipped figures. `country-json@2.3.0` carries the World Bank's
 * "Population, total" (SP.POP.TOTL) values for 2018 (checked against known WDI values in
 * `data/SOURCES.md`); a few small territories carry older figures, none of them used here.
 */
export const POPULATION_DATA_YEAR = 2018;

/** How many countries `topCountries` lists per group. */
export const TOP_COUNTRIES_PER_GROUP = 5;

export const POPULATION_SOURCE: PopulationSource = {
  name: 'World Bank, World Development Indicators: Population, total (SP.POP.TOTL), 2018, as shipped in the npm package country-json 2.3.0',
  url: 'https://data.worldbank.org/indicator/SP.POP.TOTL',
  licence: 'World Bank data: CC BY 4.0; country-json package: MIT',
  note: 'Total populations of countries and of regions summed from them, not counts of any heritage group. The World Bank builds these figures mainly on the UN World Population Prospects.',
};

const populationByCountry: ReadonlyMap<string, number> = new Map(
  countryPopulations.flatMap((row) => (typeof row.population === 'number' && row.population > 0 ? [[row.country, row.population]] : [])),
);

/** The shipped population of a country, by its name in the data set; undefined when absent. */
export function countryPopulation(countryName: string): number | undefined {
  return populationByCountry.get(countryName);
}

function figure(name: string, population: number): PopulationFigure {
  return { name, population, year: POPULATION_DATA_YEAR };
}

/**
 * Population figures for the world regions where people resembling each requested report group
 * mostly live, with each group's most populous countries and an honest caveat. Unknown ids throw
 * `UNKNOWN_HERITAGE_GROUP`; duplicates are answered once, in the order first asked.
 *
 * @example populationInsights(['indian']).groups[0].topCountries[0].name // 'India'
 */
export function populationInsights(groupIds: readonly string[]): PopulationInsights {
  return {
    groups: knownHeritageGroups(groupIds).map((id) => {
      const regions = GROUP_REGIONS[id];
      const countries = regions.flatMap((region) =>
        region.countries.map((country) => figure(country, populationByCountry.get(country) ?? 0)),
      );
      return {
        id,
        regions: regions.map((region) =>
          figure(
            region.name,
            region.countries.reduce((total, country) => total + (populationByCountry.get(country) ?? 0), 0),
          ),
        ),
        topCountries: countries
          .filter((country) => country.population > 0)
          .sort((left, right) => right.population - left.population)
          .slice(0, TOP_COUNTRIES_PER_GROUP),
        caveat: GROUP_CAVEATS[id],
      };
    }),
    source: POPULATION_SOURCE,
  };
}
