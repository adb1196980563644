import { useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';

/** One section of the home carousel. */
export type CarouselSection = { id: string; title: string; panel: ReactNode };

/** A horizontal drag at least this long turns the circles (a swipe). */
const SWIPE_MIN_PX = 40;

/** Index `step` places away from `index`, wrapping around `count`. */
export function wrapIndex(index: number, step: number, count: number): number {
  return (((index + step) % count) + count) % count;
}

/**
 * The ring's turning: the selected index, the ring's angle in steps, and the moves (turn by a step,
 * choose an index) that select a section and may focus its circle. The angle only ever grows or
 * shrinks by the step taken, so the ring turns the short way round.
 */
function useCarouselTurns(sections: readonly CarouselSection[], selectedId: string, onSelect: (id: string) => void) {
  const tabs = useRef(new Map<string, HTMLButtonElement>());
  const selectedIndex = Math.max(
    0,
    sections.findIndex((section) => section.id === selectedId),
  );
  const [turns, setTurns] = useState(-selectedIndex);
  const count = sections.length;
  const select = (target: CarouselSection, step: number, focus: boolean) => {
    setTurns((value) => value - step);
    onSelect(target.id);
    if (focus) tabs.current.get(target.id)?.focus();
  };
  const turn = (step: number, focus: boolean) => {
    const next = sections[wrapIndex(selectedIndex, step, count)];
    if (next) select(next, step, focus);
  };
  const choose = (index: number, focus: boolean) => {
    const target = sections[index];
    if (!target) return;
    const forward = wrapIndex(index, -selectedIndex, count);
    select(target, forward <= count / 2 ? forward : forward - count, focus);
  };
  return { tabs, selectedIndex, turns, count, turn, choose };
}

/** Keys on the tab list (arrows turn, Home and End jump) and a horizontal swipe on the stage. */
function useCarouselGestures({ turn, choose, count }: Pick<ReturnType<typeof useCarouselTurns>, 'turn' | 'choose' | 'count'>) {
  const swipeStartX = useRef<number | null>(null);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, () => void> = {
      ArrowRight: () => turn(1, true),
      ArrowDown: () => turn(1, true),
      ArrowLeft: () => turn(-1, true),
      ArrowUp: () => turn(-1, true),
      Home: () => choose(0, true),
      End: () => choose(count - 1, true),
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    move();
  };
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    swipeStartX.current = event.clientX;
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    const start = swipeStartX.current;
    swipeStartX.current = null;
    if (start === null) return;
    const dx = event.clientX - start;
    if (Math.abs(dx) >= SWIPE_MIN_PX) turn(dx < 0 ? 1 : -1, false);
  };
  return { onKeyDown, onPointerDown, onPointerUp };
}

/** One circle of the ring: a tab, placed at its angle and turned back upright. */
function CarouselTab({
  section,
  index,
  selectedIndex,
  turns,
  stepDeg,
  tabs,
  onChoose,
}: {
  section: CarouselSection;
  index: number;
  selectedIndex: number;
  turns: number;
  stepDeg: number;
  tabs: RefObject<Map<string, HTMLButtonElement>>;
  onChoose: (index: number, focus: boolean) => void;
}) {
  const isSelected = index === selectedIndex;
  const angle = index * stepDeg;
  return (
    <button
      type="button"
      role="tab"
      id={`carousel-tab-${section.id}`}
      aria-selected={isSelected}
      aria-controls={`carousel-panel-${section.id}`}
      tabIndex={isSelected ? 0 : -1}
      className="carousel__circle"
      style={{
        transform: `rotate(${angle}deg) translateY(calc(-1 * var(--carousel-radius))) rotate(${-angle - turns * stepDeg}deg)`,
      }}
      ref={(element) => {
        if (element) tabs.current.set(section.id, element);
        else tabs.current.delete(section.id);
      }}
      onClick={() => onChoose(index, false)}
    >
      <span>{section.title}</span>
    </button>
  );
}

/** The selected section below the ring: the tab panel. */
function CarouselPanel({ section, index, count }: { section: CarouselSection; index: number; count: number }) {
  const { t } = useTranslation();
  return (
    <div
      role="tabpanel"
      id={`carousel-panel-${section.id}`}
      aria-labelledby={`carousel-tab-${section.id}`}
      aria-roledescription="slide"
      className="carousel__panel"
      data-testid={`carousel-panel-${section.id}`}
    >
      <h2>{section.title}</h2>
      <p className="visually-hidden">{t('webapp.home.sectionPosition', { index: index + 1, count })}</p>
      {section.panel}
    </div>
  );
}

/**
 * The home carousel (product-spec §2): the sections sit as circles on a ring that rotates so the
 * selected one is in front. Built on the ARIA tabs pattern — circles are tabs, the section below is
 * the tab panel — with automatic activation: arrow keys turn the ring and select, Home and End jump;
 * the previous/next buttons and a horizontal swipe turn it too, and tapping a circle selects it.
 */
export function SectionCarousel({
  sections,
  selectedId,
  onSelect,
  label,
}: {
  sections: readonly CarouselSection[];
  selectedId: string;
  onSelect: (id: string) => void;
  label: string;
}) {
  const { t } = useTranslation();
  const ring = useCarouselTurns(sections, selectedId, onSelect);
  const { tabs, selectedIndex, turns, count, turn, choose } = ring;
  const { onKeyDown, onPointerDown, onPointerUp } = useCarouselGestures(ring);
  const selected = sections[selectedIndex];
  const stepDeg = 360 / count;
  return (
    <section className="carousel" aria-roledescription="carousel" aria-label={label}>
      <p className="carousel__tip" id="carousel-tip">
        {t('webapp.home.carouselTip')}
      </p>
      <div className="carousel__stage" onPointerDown={onPointerDown} onPointerUp={onPointerUp} data-testid="carousel-stage">
        <button
          type="button"
          className="carousel__turn carousel__turn--previous"
          onClick={() => turn(-1, false)}
          aria-label={t('webapp.home.previousSection')}
        >
          ‹
        </button>
        <div
          role="tablist"
          aria-label={label}
          aria-describedby="carousel-tip"
          className="carousel__ring"
          style={{ transform: `rotate(${turns * stepDeg}deg)` }}
          data-turns={turns}
          onKeyDown={onKeyDown}
        >
          {sections.map((section, index) => (
            <CarouselTab key={section.id} {...{ section, index, selectedIndex, turns, stepDeg, tabs }} onChoose={choose} />
          ))}
        </div>
        <button
          type="button"
          className="carousel__turn carousel__turn--next"
          onClick={() => turn(1, false)}
          aria-label={t('webapp.home.nextSection')}
        >
          ›
        </button>
      </div>
      {selected && <CarouselPanel section={selected} index={selectedIndex} count={count} />}
    </section>
  );
}
