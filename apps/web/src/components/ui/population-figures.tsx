import type { PopulationInsights } from '@roots/contracts/insights';
import { useTranslation } from 'react-i18next';

type PopulationGroup = PopulationInsights['groups'][number];

const formatCount = (value: number) => new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 }).format(value);

/**
 * One group's population figures: people by world region and in the largest countries, then the
 * data's caveat. Shared by the home's population section and the `/population` screen.
 * @param headingLevel the level of the two list headings (one below the group's own heading)
 * @param showYear whether each region names the year of its figure (default false)
 * @example <PopulationFigures group={group} headingLevel={3} showYear />
 */
export function PopulationFigures({
  group,
  headingLevel,
  showYear = false,
}: {
  group: PopulationGroup;
  headingLevel: 3 | 4;
  showYear?: boolean;
}) {
  const { t } = useTranslation();
  const Heading = `h${headingLevel}` as const;
  const people = (population: number) => t('webapp.home.population.people', { number: formatCount(population) });
  return (
    <>
      <Heading>{t('webapp.home.population.regions')}</Heading>
      <ul>
        {group.regions.map((region) => (
          <li key={region.name}>
            {region.name}: {people(region.population)}
            {showYear && ` (${region.year})`}
          </li>
        ))}
      </ul>
      <Heading>{t('webapp.home.population.countries')}</Heading>
      <ul>
        {group.topCountries.map((country) => (
          <li key={country.name}>
            {country.name}: {people(country.population)}
          </li>
        ))}
      </ul>
      <p className="hint">{group.caveat}</p>
    </>
  );
}
