import { ANALYSIS_ERROR_MESSAGES } from '@roots/contracts/messages';
import { beforeAll, describe, expect, it } from 'vitest';
import { Analyzer } from './analyzer.js';
import type { AnalysisErrorCode } from './errors.js';
import { HERITAGE_GROUP_IDS } from './heritage/groups.js';
import { measurePhoto } from './face-stage.js';
import { FaceEngine } from './inference/face-engine.js';
import { badInputs, crowdedPhotos, faceImage } from './testing/fixtures.js';
import { callAndForget, collectedAfterGc } from './testing/gc.js';

let analyzer: Analyzer;
let engine: FaceEngine;

beforeAll(async () => {
  analyzer = await Analyzer.create();
  engine = await FaceEngine.create();
});

const cases: [keyof typeof badInputs, AnalysisErrorCode][] = [
  ['randomBytes', 'UNSUPPORTED_IMAGE_FORMAT'],
  ['svgBomb', 'UNSUPPORTED_IMAGE_FORMAT'],
  ['truncatedJpeg', 'CORRUPT_IMAGE'],
  ['onePixel', 'FACE_TOO_SMALL'],
  ['hugePixels', 'IMAGE_TOO_LARGE'],
  ['hugeBytes', 'IMAGE_TOO_LARGE'],
  ['blackImage', 'TOO_DARK'],
  ['darkFace', 'TOO_DARK'],
  ['gradient', 'NO_FACE'],
  ['twoFaces', 'MULTIPLE_FACES'],
  ['tinyFace', 'FACE_TOO_SMALL'],
  ['blurredFace', 'TOO_BLURRY'],
];

describe('typed errors from real bad inputs', () => {
  it.each(cases)('%s gives %s, whose user-facing message is in the contracts catalogue', async (fixture, code) => {
    const outcome = await analyzer.analyze(await badInputs[fixture]());
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.code).toBe(code);
    // The engine answers a code, never text (ADR 133): the text is the catalogue's.
    expect(outcome).not.toHaveProperty('message');
    const message = ANALYSIS_ERROR_MESSAGES[outcome.code];
    expect(message.length).toBeGreaterThan(20);
    expect(message).not.toMatch(/error|exception|undefined/i);
  });
});

describe('photos with more than one face', () => {
  it.each(['partialNeighbour', 'smallNeighbour'] as const)(
    '%s: the neighbour is seen, and the dominant face is analysed',
    async (fixture) => {
      const bytes = await crowdedPhotos[fixture]();
      const measured = await measurePhoto(engine, bytes);
      if (!measured.ok) throw new Error(measured.code);
      expect(measured.measures.faces.length).toBeGreaterThanOrEqual(2);
      const outcome = await analyzer.analyze(bytes);
      expect(outcome.ok ? 'ok' : outcome.code).toBe('ok');
      if (!outcome.ok) return;
      // The analysed face is the person on the left, not the neighbour on the right.
      expect(outcome.face.box.x + outcome.face.box.width / 2).toBeLessThan(0.5);
      expect(outcome.heritage.groups).toHaveLength(7);
    },
  );

  it('refuses a real two-person photo: two whole faces of the same size', async () => {
    const outcome = await analyzer.analyze(await crowdedPhotos.twoPeople());
    expect(outcome.ok ? 'ok' : outcome.code).toBe('MULTIPLE_FACES');
  });
});

describe('the face check alone', () => {
  it.each(cases)('%s gives %s, as analyze does', async (fixture, code) => {
    const outcome = await analyzer.check(await badInputs[fixture]());
    expect(outcome.ok ? 'ok' : outcome.code).toBe(code);
  });

  it('gives a real face the same box and quality as analyze, and nothing more', async () => {
    const bytes = faceImage(9);
    const checked = await analyzer.check(bytes);
    const analysed = await analyzer.analyze(bytes);
    if (!analysed.ok) throw new Error('expected a face');
    expect(checked).toEqual({ ok: true, face: analysed.face, quality: analysed.quality });
  });
});

describe('a real face', () => {
  it('gives shares summing to 100, traits with coarse regions, and attributions', async () => {
    const outcome = await analyzer.analyze(faceImage(9));
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    const { heritage, traits, attributions } = outcome;
    expect(heritage.groups.map((g) => g.id).sort()).toEqual([...HERITAGE_GROUP_IDS].sort());
    expect(heritage.groups.reduce((sum, g) => sum + g.share, 0)).toBe(100);
    expect(heritage.groups.every((g) => Number.isInteger(g.share) && g.confidence >= 0 && g.confidence <= 1)).toBe(true);
    expect(heritage.coarse.groups.reduce((sum, g) => sum + g.share, 0)).toBe(100);
    expect(['fine', 'coarse', 'uncertain']).toContain(heritage.display);

    expect(traits.length).toBeGreaterThanOrEqual(8);
    for (const trait of traits) {
      expect(trait.value).toBeGreaterThanOrEqual(0);
      expect(trait.value).toBeLessThanOrEqual(1);
      expect(trait.description.length).toBeGreaterThan(10);
      expect(trait.region.polygon.length).toBeGreaterThanOrEqual(3);
      expect(trait.region.polygon.length).toBeLessThanOrEqual(8);
      for (const [x, y] of trait.region.polygon) {
        expect(x).toBeGreaterThan(-0.5);
        expect(x).toBeLessThan(1.5);
        expect(y).toBeGreaterThan(-0.5);
        expect(y).toBeLessThan(1.5);
      }
    }
    const totalPoints = traits.reduce((sum, t) => sum + t.region.polygon.length, 0);
    expect(totalPoints).toBeLessThan(100); // far from the 468-point mesh

    expect(attributions.regions.map((r) => r.id).sort()).toEqual(['eyes', 'hairline', 'jaw', 'mouth', 'nose', 'skin']);
    expect(attributions.regions.reduce((sum, r) => sum + r.weight, 0)).toBeCloseTo(1, 1);
    expect(JSON.stringify(outcome)).not.toMatch(/mesh/);
  });

  it('traits agree between a face and its mirror image', async () => {
    const sharp = (await import('sharp')).default;
    const bytes = faceImage(10);
    const original = await analyzer.analyze(bytes);
    const mirrored = await analyzer.analyze(await sharp(bytes).flop().jpeg({ quality: 95 }).toBuffer());
    if (!original.ok || !mirrored.ok) throw new Error('expected faces');
    const differences = original.traits.map((t, i) => Math.abs(t.value - mirrored.traits[i]!.value));
    expect(Math.max(...differences)).toBeLessThan(0.35);
  });
});

describe('privacy', () => {
  it('keeps no reference to the image bytes after a call', async () => {
    const { ref, result } = await callAndForget(faceImage(11), (bytes) => analyzer.analyze(bytes));
    expect(result.ok).toBe(true);
    expect(await collectedAfterGc(ref)).toBe(true);
  });
});
