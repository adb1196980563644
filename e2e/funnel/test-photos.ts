import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { CAMERA_FACE, DATASET_DIR } from '../support/paths';

/** Two different real faces from the FairFace dev set (CC BY 4.0, see its SOURCES.md). */
export const FACE_A = CAMERA_FACE;
export const FACE_B = join(DATASET_DIR, 'images/ff125tr_6455d21356dd.jpg');

/**
 * Photos the server's face check must refuse, made at test time from real faces, so every case is
 * a real image going through the browser's compression and the real engine. Each writes into `dir`
 * and returns the file's path.
 */
export const REFUSED_PHOTOS = {
  /** A real face with every pixel scaled to 6 % of its value: far too dark to see. */
  async darkFace(dir: string): Promise<string> {
    const outPath = await photoPath(dir, 'dark-face.jpg');
    await sharp(FACE_A).linear(0.06, 0).jpeg({ quality: 90 }).toFile(outPath);
    return outPath;
  },
  /** A well-lit plain gradient: light enough, but no face anywhere. */
  async noFace(dir: string): Promise<string> {
    const outPath = await photoPath(dir, 'no-face.png');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="640">
      <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#f3d9b1"/><stop offset="1" stop-color="#8fb3d9"/></linearGradient></defs>
      <rect width="640" height="640" fill="url(#g)"/></svg>`;
    await sharp(Buffer.from(svg)).png().toFile(outPath);
    return outPath;
  },
};

/**
 * Three dev faces (FairFace, CC BY 4.0, see its SOURCES.md) whose estimates differ: the engine finds
 * the middle one East Asian and the other two not (packages/analysis `face-choice.test.ts`).
 */
export const GROUP_FACES = [FACE_A, join(DATASET_DIR, 'images/ff125tr_bab19d115aa7.jpg'), FACE_B] as const;

/**
 * A group photo (ADR 192): the three faces of {@link GROUP_FACES} side by side, whole and of the
 * same size, on a 4:3 photo, made at test time from the real faces.
 */
export async function groupPhoto(dir: string): Promise<string> {
  const outPath = await photoPath(dir, 'group-of-three.jpg');
  const side = 448;
  const width = side * 3;
  const height = (width * 3) / 4;
  await sharp({ create: { width, height, channels: 3, background: { r: 128, g: 128, b: 128 } } })
    .composite(GROUP_FACES.map((face, index) => ({ input: face, left: index * side, top: (height - side) / 2 })))
    .jpeg({ quality: 90 })
    .toFile(outPath);
  return outPath;
}

async function photoPath(dir: string, name: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  return join(dir, name);
}
