/** product-spec §9: the selfie is compressed in the browser to webp at quality 0.7. */
export const SELFIE_IMAGE_TYPE = 'image/webp';
export const SELFIE_IMAGE_QUALITY = 0.7;
/** Longest side of the compressed selfie; the server resizes to 640 px anyway. */
export const SELFIE_MAX_SIDE_PX = 1280;

/** Output size that fits `maxSide` while keeping the aspect ratio. */
export function fitWithin(width: number, height: number, maxSide = SELFIE_MAX_SIDE_PX): { width: number; height: number } {
  const scale = Math.min(1, maxSide / Math.max(width, height));
  return { width: Math.round(width * scale), height: Math.round(height * scale) };
}

/**
 * Draws a frame (video, image or bitmap) into a canvas and encodes it as webp at quality 0.7.
 * @param mirror draw mirrored, as front cameras preview
 */
export async function compressFrame(
  source: CanvasImageSource,
  sourceWidth: number,
  sourceHeight: number,
  { mirror = false, quality = SELFIE_IMAGE_QUALITY } = {},
): Promise<{ blob: Blob; width: number; height: number }> {
  const { width, height } = fitWithin(sourceWidth, sourceHeight);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('canvas 2d context unavailable');
  if (mirror) {
    context.translate(width, 0);
    context.scale(-1, 1);
  }
  context.drawImage(source, 0, 0, width, height);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, SELFIE_IMAGE_TYPE, quality));
  if (!blob) throw new Error('image encoding failed');
  return { blob, width, height };
}

/** Decodes an uploaded file (any browser-supported image) and compresses it like a camera frame. */
export async function compressImageFile(file: Blob): Promise<{ blob: Blob; width: number; height: number }> {
  const bitmap = await createImageBitmap(file);
  try {
    return await compressFrame(bitmap, bitmap.width, bitmap.height);
  } finally {
    bitmap.close();
  }
}
