import { heritageColour, type ShownGroup } from '@roots/contracts/heritage-wording';
import { useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ringSegmentPath, ringSegments, rotationTowards } from './diagram-geometry';

/** One group on the ring: its share and the uncertainty wording screen readers hear with it. */
export type DiagramGroup = ShownGroup;

const CENTER = 100;
const OUTER_RADIUS = 92;
const INNER_RADIUS = 58;
/**
 * The widest the group's name may be inside the ring (issue 35: a long name ran over it): the
 * chord of the hole at the label's line (16 below the centre), less a margin.
 */
export const LABEL_MAX_WIDTH = Math.floor(2 * Math.sqrt(INNER_RADIUS ** 2 - 20 ** 2) * 0.9);
/** About how wide an 11px character of the label draws, in the diagram's units. */
const LABEL_CHAR_WIDTH = 6;

/**
 * The 'Your Ethnicity' diagram (product-spec §2): a ring with one segment per group. Tapping a
 * segment selects it and the ring turns until the segment sits under the top marker. The list
 * beside it is a radio group (arrow keys, Home, End) that does the same for keyboard and screen
 * reader users, each option named with its group, share and uncertainty.
 */
export function EthnicityDiagram({ groups }: { groups: readonly DiagramGroup[] }) {
  const { t } = useTranslation();
  const shown = groups.filter((group) => group.share > 0);
  const segments = ringSegments(shown);
  const [selectedId, setSelectedId] = useState(shown[0]?.id ?? '');
  const [rotationDeg, setRotationDeg] = useState(() => rotationTowards(0, segments[0]?.midDeg ?? 0));
  const options = useRef(new Map<string, HTMLButtonElement>());

  const select = (id: string, focus = false) => {
    const segment = segments.find((item) => item.id === id);
    if (!segment) return;
    setSelectedId(id);
    setRotationDeg((current) => rotationTowards(current, segment.midDeg));
    if (focus) options.current.get(id)?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = shown.findIndex((group) => group.id === selectedId);
    const last = shown.length - 1;
    const next: Record<string, number> = {
      ArrowRight: index === last ? 0 : index + 1,
      ArrowDown: index === last ? 0 : index + 1,
      ArrowLeft: index === 0 ? last : index - 1,
      ArrowUp: index === 0 ? last : index - 1,
      Home: 0,
      End: last,
    };
    const target = next[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const group = shown[target];
    if (group) select(group.id, true);
  };

  const selected = shown.find((group) => group.id === selectedId);
  return (
    <div className="ethnicity-diagram">
      <div className="ethnicity-diagram__figure">
        <svg viewBox="0 0 200 200" aria-hidden="true" focusable="false" data-testid="ethnicity-ring">
          <g className="ethnicity-diagram__ring" style={{ transform: `rotate(${rotationDeg}deg)` }} data-rotation={rotationDeg.toFixed(1)}>
            {segments.map((segment, index) => (
              <path
                key={segment.id}
                d={ringSegmentPath(CENTER, CENTER, INNER_RADIUS, OUTER_RADIUS, segment.startDeg, segment.endDeg)}
                fill={heritageColour(index)}
                className={segment.id === selectedId ? 'is-selected' : undefined}
                data-testid="ethnicity-segment"
                data-group={segment.id}
                onClick={() => select(segment.id)}
              />
            ))}
          </g>
          <path d="M 92 0 L 108 0 L 100 14 Z" className="ethnicity-diagram__marker" />
          {selected && (
            <>
              <text x={CENTER} y={CENTER - 4} textAnchor="middle" className="ethnicity-diagram__share">
                {selected.share}%
              </text>
              <text
                x={CENTER}
                y={CENTER + 16}
                textAnchor="middle"
                className="ethnicity-diagram__label"
                {...(selected.label.length * LABEL_CHAR_WIDTH > LABEL_MAX_WIDTH
                  ? { textLength: LABEL_MAX_WIDTH, lengthAdjust: 'spacingAndGlyphs' }
                  : {})}
              >
                {selected.label}
              </text>
            </>
          )}
        </svg>
      </div>
      <p className="hint">{t('webapp.myEthnicity.diagram.hint')}</p>
      <div
        role="radiogroup"
        aria-label={t('webapp.myEthnicity.diagram.groups')}
        className="ethnicity-diagram__options"
        onKeyDown={onKeyDown}
      >
        {shown.map((group, index) => {
          const checked = group.id === selectedId;
          return (
            <button
              key={group.id}
              type="button"
              role="radio"
              aria-checked={checked}
              tabIndex={checked ? 0 : -1}
              ref={(element) => {
                if (element) options.current.set(group.id, element);
                else options.current.delete(group.id);
              }}
              className="ethnicity-diagram__option"
              aria-label={t('webapp.myEthnicity.diagram.segment', {
                group: group.label,
                share: group.share,
                uncertainty: group.uncertainty,
              })}
              onClick={() => select(group.id)}
            >
              <span className="ethnicity-diagram__swatch" style={{ background: heritageColour(index) }} aria-hidden="true" />
              <span>{group.label}</span>
              <span className="ethnicity-diagram__option-share">{group.share}%</span>
            </button>
          );
        })}
      </div>
      <p className="visually-hidden" aria-live="polite">
        {selected ? t('webapp.myEthnicity.diagram.selected', { group: selected.label, share: selected.share }) : ''}
      </p>
    </div>
  );
}
