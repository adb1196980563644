import { writeFileSync } from 'node:fs';
import sharp from 'sharp';

/**
 * Writes a one-frame YUV4MPEG2 (4:2:0) file from a photo, for Chromium's fake camera
 * (`--use-file-for-fake-video-capture`). The photo is fitted into width × height on grey.
 */
export async function writeY4m(photoPath: string, outPath: string, width = 640, height = 480): Promise<void> {
  const { data } = await sharp(photoPath)
    .resize(width, height, { fit: 'contain', background: { r: 128, g: 128, b: 128 } })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const y = Buffer.alloc(width * height);
  const u = Buffer.alloc((width / 2) * (height / 2));
  const v = Buffer.alloc((width / 2) * (height / 2));
  const clamp = (value: number) => Math.max(0, Math.min(255, Math.round(value)));
  for (let row = 0; row < height; row += 1) {
    for (let col = 0; col < width; col += 1) {
      const i = (row * width + col) * 3;
      y[row * width + col] = clamp(0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!);
    }
  }
  for (let row = 0; row < height; row += 2) {
    for (let col = 0; col < width; col += 2) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (const [dr, dc] of [
        [0, 0],
        [0, 1],
        [1, 0],
        [1, 1],
      ] as const) {
        const i = ((row + dr) * width + col + dc) * 3;
        r += data[i]!;
        g += data[i + 1]!;
        b += data[i + 2]!;
      }
      r /= 4;
      g /= 4;
      b /= 4;
      const index = (row / 2) * (width / 2) + col / 2;
      u[index] = clamp(-0.168736 * r - 0.331264 * g + 0.5 * b + 128);
      v[index] = clamp(0.5 * r - 0.418688 * g - 0.081312 * b + 128);
    }
  }
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F30:1 Ip A1:1 C420jpeg\n`);
  writeFileSync(outPath, Buffer.concat([header, Buffer.from('FRAME\n'), y, u, v]));
}
