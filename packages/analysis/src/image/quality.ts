import sharp from 'sharp';
import type { RgbImage } from '../inference/face-engine.js';

/** Mean luma (0..1) of a region, Rec. 601 weights, sampled on a 4 px grid (cheap and sufficient). */
export function meanBrightness(image: RgbImage, box?: [number, number, number, number]): number {
  const [x0, y0, w, h] = box ?? [0, 0, image.width, image.height];
  const left = Math.max(0, Math.floor(x0));
  const top = Math.max(0, Math.floor(y0));
  const right = Math.min(image.width, Math.ceil(x0 + w));
  const bottom = Math.min(image.height, Math.ceil(y0 + h));
  let sum = 0;
  let count = 0;
  for (let y = top; y < bottom; y += 4) {
    for (let x = left; x < right; x += 4) {
      const offset = (y * image.width + x) * 3;
      sum += 0.299 * (image.data[offset] ?? 0) + 0.587 * (image.data[offset + 1] ?? 0) + 0.114 * (image.data[offset + 2] ?? 0);
      count += 1;
    }
  }
  return count === 0 ? 0 : sum / count / 255;
}

export const SHARPNESS_SIDE_PX = 128;

/**
 * Standard deviation of the Laplacian of the face box, resampled to 128 px so the figure does not
 * depend on how large the face is. Higher is sharper; JPEG noise keeps real photos above ~4.
 */
export async function faceSharpness(image: RgbImage, box: [number, number, number, number]): Promise<number> {
  const left = Math.max(0, Math.round(box[0]));
  const top = Math.max(0, Math.round(box[1]));
  const width = Math.max(1, Math.min(image.width - left, Math.round(box[2])));
  const height = Math.max(1, Math.min(image.height - top, Math.round(box[3])));
  const grey = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .extract({ left, top, width, height })
    .resize(SHARPNESS_SIDE_PX, SHARPNESS_SIDE_PX, { fit: 'fill' })
    .greyscale()
    .raw()
    .toBuffer();
  const side = SHARPNESS_SIDE_PX;
  let sum = 0;
  let sumSquares = 0;
  let count = 0;
  for (let y = 1; y < side - 1; y++) {
    for (let x = 1; x < side - 1; x++) {
      const at = y * side + x;
      const laplacian = grey[at - 1]! + grey[at + 1]! + grey[at - side]! + grey[at + side]! - 4 * grey[at]!;
      sum += laplacian;
      sumSquares += laplacian * laplacian;
      count += 1;
    }
  }
  const mean = sum / count;
  return Math.sqrt(Math.max(0, sumSquares / count - mean * mean));
}
