import { HERITAGE_GROUP_IDS, HERITAGE_GROUP_LABELS as GROUP_LABELS, type HeritageGroupId } from '@roots/contracts/insights';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Loaded } from '../../components/ui/loaded';
import { PopulationFigures } from '../../components/ui/population-figures';
import { Screen } from '../../components/ui/screen';
import { productPath } from '../../lib/paths';
import { usePublicConfig } from '../../lib/public-config-context';
import { loadPopulations } from './api/load-populations';
import { useResource } from '../../lib/use-resource';

/**
 * `/{slug}/population`: the population insights open to everyone — where people of each group the
 * report names live today, by world region and largest countries, with the source and its caveat.
 */
export function PopulationScreen() {
  const { t } = useTranslation();
  const { slug } = usePublicConfig();
  const [selected, setSelected] = useState<HeritageGroupId>(HERITAGE_GROUP_IDS[0]);
  const insights = useResource('all', loadPopulations);
  return (
    <Screen title={t('screens.titles.population')} testId="population-screen">
      <p>{t('screens.population.intro')}</p>
      <div role="group" aria-label={t('screens.population.choose')} className="population__groups">
        {HERITAGE_GROUP_IDS.map((id) => (
          <button
            key={id}
            type="button"
            className={id === selected ? 'button button--primary' : 'button button--secondary'}
            aria-pressed={id === selected}
            onClick={() => setSelected(id)}
          >
            {GROUP_LABELS[id]}
          </button>
        ))}
      </div>
      <Loaded resource={insights}>
        {({ groups, source }) => {
          const group = groups.find((candidate) => candidate.id === selected);
          if (!group) return null;
          return (
            <article className="population-group" data-testid="population-group">
              <h2>{GROUP_LABELS[group.id]}</h2>
              <PopulationFigures group={group} headingLevel={3} showYear />
              <p className="hint">
                <a href={source.url} target="_blank" rel="noreferrer">
                  {t('webapp.home.population.source', { name: source.name, licence: source.licence })}
                </a>
              </p>
            </article>
          );
        }}
      </Loaded>
      <p>{t('screens.population.personal')}</p>
      <Link className="button button--primary" to={productPath(slug, '')}>
        {t('screens.landing.cta')}
      </Link>
    </Screen>
  );
}
