import { FACE_REGION_TEMPLATE, type FaceRegionId, type ReportTrait, type TemplatePolygon } from '@roots/contracts/reports';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The template is a unit box; the figure draws it in a 100 × 100 view box. */
const SCALE = 100;

const pointsOf = (polygon: TemplatePolygon) => polygon.map(([x, y]) => `${(x * SCALE).toFixed(1)},${(y * SCALE).toFixed(1)}`).join(' ');

/** The outlines of one region on the schematic face. */
function RegionShapes({ region, className }: { region: FaceRegionId; className: string }) {
  return (
    <g className={className} data-region={region}>
      {FACE_REGION_TEMPLATE[region].map((polygon, index) => (
        <polygon key={index} points={pointsOf(polygon)} />
      ))}
    </g>
  );
}

/**
 * Facial traits with their supporting regions (product-spec §2), drawn over the schematic face of
 * `FACE_REGION_TEMPLATE` — never the person's own face (ADR 060). Every trait's region is tinted;
 * the selected trait's region is drawn strongly. The traits are toggle buttons; the figure's name
 * says which region is highlighted and why.
 */
export function FacialTraits({ traits }: { traits: readonly ReportTrait[] }) {
  const { t } = useTranslation();
  const [selectedId, setSelectedId] = useState(traits[0]?.id ?? '');
  const selected = traits.find((trait) => trait.id === selectedId) ?? traits[0];
  if (!selected) return <p>{t('webapp.myEthnicity.traits.none')}</p>;
  const supporting = [...new Set(traits.map((trait) => trait.region.id))];
  return (
    <div className="facial-traits">
      <svg
        viewBox="0 0 100 100"
        role="img"
        className="facial-traits__figure"
        aria-label={t('webapp.myEthnicity.traits.figure', { region: selected.region.label, trait: selected.label })}
        data-testid="facial-traits-figure"
      >
        <polygon points={pointsOf(FACE_REGION_TEMPLATE.face_oval[0]!)} className="facial-traits__outline" />
        {supporting.map((region) => (
          <RegionShapes key={region} region={region} className="facial-traits__region" />
        ))}
        <RegionShapes region={selected.region.id} className="facial-traits__region facial-traits__region--selected" />
      </svg>
      <ul className="facial-traits__list">
        {traits.map((trait) => (
          <li key={trait.id}>
            <button
              type="button"
              className="facial-traits__trait"
              aria-pressed={trait.id === selected.id}
              onClick={() => setSelectedId(trait.id)}
              data-region={trait.region.id}
            >
              <strong>{trait.label}</strong>
              <span>{t('webapp.myEthnicity.traits.region', { region: trait.region.label })}</span>
            </button>
          </li>
        ))}
      </ul>
      <div className="facial-traits__detail" aria-live="polite">
        <h3>{selected.label}</h3>
        <p>{selected.description}</p>
        <p className="hint">{t('webapp.myEthnicity.traits.percentile', { percent: Math.round(selected.value * 100) })}</p>
      </div>
    </div>
  );
}
