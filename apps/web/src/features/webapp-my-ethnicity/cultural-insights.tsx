import type { CulturalInsight, HeritageGroupId } from '@roots/contracts/insights';
import { useTranslation } from 'react-i18next';
import { Loaded } from '../../components/ui/loaded';
import { useResource } from '../../lib/use-resource';
import { getCulturalInsights } from './api/get-cultural-insights';

/** A labelled list inside one group's insight. */
function Facts({ title, items }: { title: string; items: readonly string[] }) {
  return (
    <>
      <h4>{title}</h4>
      <ul>
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </>
  );
}

/** Each group's insight with its sources. */
function InsightList({ insights }: { insights: readonly CulturalInsight[] }) {
  const { t } = useTranslation();
  return (
    <div className="cultural-insights" data-testid="cultural-insights">
      <p className="hint">{t('webapp.myEthnicity.cultural.intro')}</p>
      {insights.map((insight) => (
        <article key={insight.id} className="cultural-insights__group">
          <h3>{insight.title}</h3>
          <p>{insight.overview}</p>
          <Facts title={t('webapp.myEthnicity.cultural.regions')} items={insight.regions} />
          <Facts title={t('webapp.myEthnicity.cultural.languages')} items={insight.languages} />
          <Facts title={t('webapp.myEthnicity.cultural.traditions')} items={insight.traditions} />
          <Facts title={t('webapp.myEthnicity.cultural.cuisine')} items={insight.cuisine} />
          <p className="hint">{insight.diversityNote}</p>
          <h4>{t('webapp.myEthnicity.cultural.sources')}</h4>
          <ul>
            {insight.sources.map((source) => (
              <li key={source.url}>
                <a href={source.url} target="_blank" rel="noreferrer">
                  {source.name}
                </a>
              </li>
            ))}
          </ul>
        </article>
      ))}
    </div>
  );
}

/** Cultural Insights (product-spec §2) for the report's insight groups, from `/api/insights/cultural`, with their sources. */
export function CulturalInsights({ groups }: { groups: readonly HeritageGroupId[] }) {
  const insights = useResource(groups.join(','), (signal) => getCulturalInsights(groups, signal));
  return <Loaded resource={insights}>{(data) => <InsightList insights={data} />}</Loaded>;
}
