import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

/**
 * Dev-set images used as real faces in tests (fixtures are read from disk; the engine never writes):
 * the FairFace dev set kept in the repository, packages/analysis/data/fairface-dev (CC BY 4.0).
 */
export const DATASET_DIR = fileURLToPath(new URL('../../data/fairface-dev', import.meta.url));

export function datasetImage(index: number): Buffer {
  const rows = readFileSync(path.join(DATASET_DIR, 'labels.csv'), 'utf8').trim().split('\n').slice(1);
  const file = rows[index % rows.length]!.split(',')[0]!;
  return readFileSync(path.join(DATASET_DIR, file));
}

export const badInputs = {
  randomBytes: async () => randomBytes(4096),
  /** A 321-byte kind of SVG that would have libvips render 36 MP through a wide blur (issue 32). */
  svgBomb: async () =>
    Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="6000" height="6000"><filter id="b"><feGaussianBlur stdDeviation="300"/></filter>' +
        '<rect width="6000" height="6000" fill="#808080" filter="url(#b)"/></svg>',
    ),
  truncatedJpeg: async () => datasetImage(0).subarray(0, Math.floor(datasetImage(0).length * 0.6)),
  onePixel: async () =>
    sharp({ create: { width: 1, height: 1, channels: 3, background: '#886655' } })
      .png()
      .toBuffer(),
  hugePixels: async () =>
    sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#808080' } })
      .jpeg()
      .toBuffer(),
  hugeBytes: async () => Buffer.alloc(16 * 1024 * 1024, 1),
  blackImage: async () =>
    sharp({ create: { width: 640, height: 480, channels: 3, background: '#050505' } })
      .jpeg()
      .toBuffer(),
  darkFace: async () => sharp(datasetImage(1)).linear(0.12, 0).jpeg().toBuffer(),
  gradient: async () => {
    const width = 640;
    const height = 480;
    const pixels = Buffer.alloc(width * height * 3);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const offset = (y * width + x) * 3;
        pixels[offset] = Math.round((x / width) * 255);
        pixels[offset + 1] = Math.round((y / height) * 255);
        pixels[offset + 2] = 160;
      }
    }
    return sharp(pixels, { raw: { width, height, channels: 3 } })
      .jpeg()
      .toBuffer();
  },
  twoFaces: async () =>
    sharp({ create: { width: 896, height: 448, channels: 3, background: '#808080' } })
      .composite([
        { input: datasetImage(2), left: 0, top: 0 },
        { input: datasetImage(3), left: 448, top: 0 },
      ])
      .jpeg()
      .toBuffer(),
  tinyFace: async () =>
    sharp({ create: { width: 1600, height: 1600, channels: 3, background: '#808080' } })
      .composite([{ input: await sharp(datasetImage(4)).resize(300).toBuffer(), left: 650, top: 650 }])
      .jpeg()
      .toBuffer(),
  blurredFace: async () => sharp(datasetImage(5)).blur(6).jpeg({ quality: 95 }).toBuffer(),
};

/**
 * Photos a person would analyse although they show more than one face, and the one a person would
 * refuse, composed from two dev faces (A is the person, B the neighbour).
 */
export const crowdedPhotos = {
  /** B beside A, the frame's right edge cutting B's face in half. */
  partialNeighbour: async () => {
    const side = 448;
    return sharp({ create: { width: side + side / 2, height: side, channels: 3, background: '#808080' } })
      .composite([
        { input: faceImage(4), left: 0, top: 0 },
        { input: faceImage(5), left: side, top: 0 },
      ])
      .jpeg({ quality: 92 })
      .toBuffer();
  },
  /** B whole but at a third of A's size, in the corner beside A. */
  smallNeighbour: async () => {
    const side = 448;
    return sharp({ create: { width: side + 160, height: side, channels: 3, background: '#808080' } })
      .composite([
        { input: faceImage(0), left: 0, top: 0 },
        { input: await sharp(faceImage(1)).resize(150).toBuffer(), left: side + 5, top: 20 },
      ])
      .jpeg({ quality: 92 })
      .toBuffer();
  },
  /** A and B whole and the same size on a 4:3 photo: two people, which a person would refuse too. */
  twoPeople: async () => {
    const side = 448;
    const width = side * 2;
    const height = (width * 3) / 4;
    return sharp({ create: { width, height, channels: 3, background: '#808080' } })
      .composite([
        { input: faceImage(2), left: 0, top: (height - side) / 2 },
        { input: faceImage(3), left: side, top: (height - side) / 2 },
      ])
      .jpeg({ quality: 92 })
      .toBuffer();
  },
};

/** Three dev faces (FairFace, CC BY 4.0) whose estimates differ, for a group photo. */
export const GROUP_FACE_FILES = [
  'images/ff125tr_0038488286d8.jpg',
  'images/ff125tr_bab19d115aa7.jpg',
  'images/ff125tr_6455d21356dd.jpg',
] as const;

/**
 * A group photo of three people side by side, whole and of comparable size, on a 4:3 photo (ADR 192):
 * left to right the dev faces of {@link GROUP_FACE_FILES}, each 448 px.
 */
export async function groupOfThree(): Promise<Buffer> {
  const side = 448;
  const width = side * 3;
  const height = (width * 3) / 4;
  return sharp({ create: { width, height, channels: 3, background: '#808080' } })
    .composite(
      GROUP_FACE_FILES.map((file, index) => ({
        input: readFileSync(path.join(DATASET_DIR, file)),
        left: index * side,
        top: (height - side) / 2,
      })),
    )
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** Dev images that pass every quality gate (frontal, one face, sharp enough). */
const GOOD_FACE_INDICES = [0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 12, 13, 14, 16, 17, 18, 19, 21, 22, 24, 25, 26, 27, 28, 29, 30, 31, 34, 35, 37];

export function faceImage(n: number): Buffer {
  return datasetImage(GOOD_FACE_INDICES[n % GOOD_FACE_INDICES.length]!);
}
