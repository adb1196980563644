import { beforeAll, describe, expect, it } from 'vitest';
import { Analyzer } from './analyzer.js';
import {
  choosableFaces,
  intersectionOverUnion,
  matchChosenFace,
  MIN_CHOSEN_FACE_IOU,
  refusal,
  type FoundFace,
  type PhotoMeasures,
} from './face-stage.js';
import { faceImage, groupOfThree } from './testing/fixtures.js';

/** A whole, clear face at `[x, y, side, side]` in pixels (no mesh needed by the rules under test). */
const face = (x: number, y: number, side: number, overrides: Partial<FoundFace> = {}): FoundFace => ({
  box: [x, y, side, side],
  score: 0.95,
  detectorScore: 0.9,
  mesh: [],
  inFrame: 1,
  ...overrides,
});
const image = { width: 1000, height: 500 };
const lit = { brightness: 0.5, retried: false, faceBrightness: 0.5, faceSharpness: 20 };

describe('choosing one face of a group photo (ADR 192)', () => {
  it('measures overlap as intersection over union', () => {
    expect(intersectionOverUnion([0, 0, 100, 100], [0, 0, 100, 100])).toBe(1);
    expect(intersectionOverUnion([0, 0, 100, 100], [200, 0, 100, 100])).toBe(0);
    // Half of each box overlaps the other: 5000 / (10000 + 10000 - 5000).
    expect(intersectionOverUnion([0, 0, 100, 100], [50, 0, 100, 100])).toBeCloseTo(1 / 3, 10);
  });

  it('matches the chosen box to the detected face that overlaps it most, and to none below the threshold', () => {
    const faces = [face(100, 100, 200), face(400, 100, 200), face(700, 100, 200)];
    // The middle face, as fractions of the photo, a little off (rounding, re-encoding).
    const chosen = { x: 0.41, y: 0.21, width: 0.2, height: 0.4 };
    expect(matchChosenFace(faces, chosen, image)?.face).toBe(faces[1]);
    // A box between two faces overlaps each by less than the threshold: no match, never a guess.
    const between = { x: 0.25, y: 0.2, width: 0.2, height: 0.4 };
    const overlaps = faces.map((candidate) => intersectionOverUnion(candidate.box, [250, 100, 200, 200]));
    expect(Math.max(...overlaps)).toBeLessThan(MIN_CHOSEN_FACE_IOU);
    expect(matchChosenFace(faces, between, image)).toBeUndefined();
    expect(matchChosenFace([], chosen, image)).toBeUndefined();
  });

  it('refuses a photo of comparable people until one is chosen, then judges the chosen face alone', () => {
    const people = [face(400, 100, 200), face(100, 100, 180), face(700, 100, 190)];
    expect(refusal({ ...lit, faces: people })?.code).toBe('MULTIPLE_FACES');
    expect(refusal({ ...lit, faces: people, chosen: true })).toBeUndefined();
    // The chosen face still meets every gate: a tiny chosen face is refused as too small.
    expect(refusal({ ...lit, faces: [face(10, 10, 40), ...people], chosen: true })?.code).toBe('FACE_TOO_SMALL');
  });

  it('offers the largest face and its rivals, left to right, as fractions; never a small or cut face', () => {
    const measures: PhotoMeasures = {
      ...lit,
      faces: [
        face(400, 100, 200),
        face(700, 100, 190),
        face(100, 100, 180),
        face(900, 0, 60), // small, in the background
        face(950, 300, 190, { inFrame: 0.5 }), // cut by the frame
      ],
    };
    expect(choosableFaces(measures, image)).toEqual([
      { x: 0.1, y: 0.2, width: 0.18, height: 0.36 },
      { x: 0.4, y: 0.2, width: 0.2, height: 0.4 },
      { x: 0.7, y: 0.2, width: 0.19, height: 0.38 },
    ]);
  });
});

describe('a real group photo through the engine', () => {
  let analyzer: Analyzer;
  beforeAll(async () => {
    analyzer = await Analyzer.create();
  });

  it('answers the three faces, then analyses the chosen one only', async () => {
    const photo = await groupOfThree();
    const checked = await analyzer.check(photo);
    if (checked.ok) throw new Error('a photo of three people was analysed without a choice');
    expect(checked.code).toBe('MULTIPLE_FACES');
    const faces = checked.faces ?? [];
    expect(faces).toHaveLength(3);
    // Left to right, one face in each third of the photo.
    expect(faces.map((box) => Math.floor((box.x + box.width / 2) * 3))).toEqual([0, 1, 2]);

    const second = faces[1]!;
    const analysed = await analyzer.analyze(photo, second);
    if (!analysed.ok) throw new Error(analysed.code);
    expect(analysed.face.box).toEqual(second);
    // The middle face is the East Asian one of the dev set; the others are estimated otherwise.
    expect(analysed.heritage.top).toBe('east_asian');
    const first = await analyzer.analyze(photo, faces[0]!);
    if (!first.ok) throw new Error(first.code);
    expect(first.face.box).toEqual(faces[0]);
    expect(first.heritage.top).not.toBe('east_asian');

    // The face check of the chosen face passes and measures that face.
    const checkedSecond = await analyzer.check(photo, second);
    expect(checkedSecond.ok && checkedSecond.face.box).toEqual(second);
  });

  it('refuses a choice that matches no face of the photo, rather than guess', async () => {
    const photo = await groupOfThree();
    const outcome = await analyzer.analyze(photo, { x: 0, y: 0, width: 0.1, height: 0.1 });
    expect(outcome.ok ? 'ok' : outcome.code).toBe('CHOSEN_FACE_NOT_FOUND');
  });

  it('analyses a one-face photo named with its own box as before', async () => {
    const photo = faceImage(3);
    const plain = await analyzer.analyze(photo);
    if (!plain.ok) throw new Error(plain.code);
    const named = await analyzer.analyze(photo, plain.face.box);
    expect(named.ok && named.heritage).toEqual(plain.heritage);
  });
});
