import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { REPO_ROOT } from '../../test/gateway-process';

/** The FairFace dev set kept in the repository (`packages/analysis/data/fairface-dev`, CC BY 4.0), as the analysis fixtures find it. */
export const DATASET_DIR = join(REPO_ROOT, 'packages', 'analysis', 'data', 'fairface-dev');

/** The n-th image of the dev set's labels.csv (the first rows are known to hold one usable face). */
export function datasetFace(index: number): Buffer {
  const rows = readFileSync(join(DATASET_DIR, 'labels.csv'), 'utf8').trim().split('\n').slice(1);
  const file = rows[index % rows.length]!.split(',')[0]!;
  return readFileSync(join(DATASET_DIR, file));
}

/**
 * A group photo (ADR 192): three dev faces side by side, whole and the same size, on a 4:3 photo.
 * Left to right the engine estimates them Middle Eastern, East Asian and Black (the middle one is
 * the only East Asian; packages/analysis `face-choice.test.ts` composes the same photo).
 */
export async function groupOfThree(): Promise<Buffer> {
  const files = ['ff125tr_0038488286d8.jpg', 'ff125tr_bab19d115aa7.jpg', 'ff125tr_6455d21356dd.jpg'];
  const side = 448;
  const width = side * 3;
  const height = (width * 3) / 4;
  return sharp({ create: { width, height, channels: 3, background: '#808080' } })
    .composite(files.map((file, index) => ({ input: join(DATASET_DIR, 'images', file), left: index * side, top: (height - side) / 2 })))
    .jpeg({ quality: 90 })
    .toBuffer();
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid PNG of one flat grey with gentle noise: an image with no face in it. */
export function facelessPng(width = 320, height = 240): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(0, 9); // greyscale
  const rows: Buffer[] = [];
  const noise = randomBytes(width * height);
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(width + 1);
    for (let x = 0; x < width; x++) row[x + 1] = 110 + ((x + y) % 40) + (noise[y * width + x]! % 8);
    rows.push(row);
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.concat(rows))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
