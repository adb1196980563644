import { FACE_BOX_PARAM, type FaceBox, type FaceCheckOk } from '@roots/contracts/face-check';
import { RequestError, uploadWithProgress } from './api-client';

/**
 * POST /api/face-check: the server checks the photo in memory (one usable face, light, size) and
 * drops it. Upload progress is reported 0..1 through `onUploadProgress`. With `face` (the face the
 * customer chose in a group photo, ADR 192) that face alone is checked.
 */
export function checkFace(photo: Blob, face: FaceBox | undefined, onUploadProgress: (fraction: number) => void): Promise<FaceCheckOk> {
  const query = face ? `?${FACE_BOX_PARAM}=${encodeURIComponent(faceBoxParam(face))}` : '';
  return uploadWithProgress<FaceCheckOk>(`/api/face-check${query}`, photo, onUploadProgress);
}

/** `x,y,width,height`, as `faceBoxParamSchema` reads it (the processing chunk carries no zod). */
function faceBoxParam(box: FaceBox): string {
  return [box.x, box.y, box.width, box.height].map((value) => String(Math.round(Math.min(1, Math.max(0, value)) * 1e6) / 1e6)).join(',');
}

const isFraction = (value: unknown): value is number => typeof value === 'number' && value >= 0 && value <= 1;
const isFaceBox = (value: unknown): value is FaceBox => {
  if (typeof value !== 'object' || value === null) return false;
  const { x, y, width, height } = value as Record<string, unknown>;
  return isFraction(x) && isFraction(y) && isFraction(width) && isFraction(height);
};

/**
 * The faces to choose from when the check refused a photo of several people (422 MULTIPLE_FACES
 * with `faces`, left to right); null for any other failure.
 */
export function severalFacesOf(reason: unknown): FaceBox[] | null {
  if (!(reason instanceof RequestError) || reason.code !== 'MULTIPLE_FACES') return null;
  const faces = (reason.body as { faces?: unknown } | undefined)?.faces;
  return Array.isArray(faces) && faces.length >= 2 && faces.every(isFaceBox) ? faces : null;
}
