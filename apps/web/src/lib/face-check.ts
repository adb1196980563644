import type { FaceCheckOk } from '@roots/contracts/face-check';
import { uploadWithProgress } from './api-client';

/**
 * POST /api/face-check: the server checks the photo in memory (one usable face, light, size) and
 * drops it. Upload progress is reported 0..1 through `onUploadProgress`.
 */
export function checkFace(photo: Blob, onUploadProgress: (fraction: number) => void): Promise<FaceCheckOk> {
  return uploadWithProgress<FaceCheckOk>('/api/face-check', photo, onUploadProgress);
}
