/** One segment of the Your Ethnicity ring: degrees clockwise from the top, start < end. */
export type RingSegment = { id: string; startDeg: number; endDeg: number; midDeg: number };

/**
 * Lays shares (percent, summing to about 100) out around a ring, clockwise from the top, in the
 * given order. Zero shares get no segment.
 * @example ringSegments([{ id: 'a', share: 75 }, { id: 'b', share: 25 }]) // a: 0–270°, b: 270–360°
 */
export function ringSegments(shares: ReadonlyArray<{ id: string; share: number }>): RingSegment[] {
  const total = shares.reduce((sum, item) => sum + Math.max(0, item.share), 0);
  if (total <= 0) return [];
  let start = 0;
  const segments: RingSegment[] = [];
  for (const item of shares) {
    if (item.share <= 0) continue;
    const sweep = (item.share / total) * 360;
    segments.push({ id: item.id, startDeg: start, endDeg: start + sweep, midDeg: start + sweep / 2 });
    start += sweep;
  }
  return segments;
}

/**
 * The ring's next rotation so that a segment's middle points at the top marker, turning the short
 * way from the current rotation (a ring never spins all the way round to reach a neighbour).
 * @example rotationTowards(0, 300) // 60: turning +60° brings 300° to the top
 */
export function rotationTowards(currentDeg: number, targetMidDeg: number): number {
  const wanted = -targetMidDeg;
  let delta = (((wanted - currentDeg) % 360) + 360) % 360;
  if (delta > 180) delta -= 360;
  return currentDeg + delta;
}

/** A point on a circle of `radius` around (`cx`, `cy`) at `deg` clockwise from the top. */
function pointAt(cx: number, cy: number, radius: number, deg: number): [number, number] {
  const radians = ((deg - 90) * Math.PI) / 180;
  return [cx + radius * Math.cos(radians), cy + radius * Math.sin(radians)];
}

/**
 * SVG path of a ring segment (an annulus sector) between `inner` and `outer` radii. A full circle
 * is drawn as two halves, since one arc cannot start and end at the same point.
 */
export function ringSegmentPath(cx: number, cy: number, inner: number, outer: number, startDeg: number, endDeg: number): string {
  if (endDeg - startDeg >= 359.999) {
    return `${ringSegmentPath(cx, cy, inner, outer, 0, 180)} ${ringSegmentPath(cx, cy, inner, outer, 180, 360)}`;
  }
  const large = endDeg - startDeg > 180 ? 1 : 0;
  const [x1, y1] = pointAt(cx, cy, outer, startDeg);
  const [x2, y2] = pointAt(cx, cy, outer, endDeg);
  const [x3, y3] = pointAt(cx, cy, inner, endDeg);
  const [x4, y4] = pointAt(cx, cy, inner, startDeg);
  const f = (value: number) => value.toFixed(3);
  return [
    `M ${f(x1)} ${f(y1)}`,
    `A ${outer} ${outer} 0 ${large} 1 ${f(x2)} ${f(y2)}`,
    `L ${f(x3)} ${f(y3)}`,
    `A ${inner} ${inner} 0 ${large} 0 ${f(x4)} ${f(y4)}`,
    'Z',
  ].join(' ');
}
