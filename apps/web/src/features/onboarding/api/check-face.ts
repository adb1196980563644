import type { FaceCheckOk } from '@roots/contracts/face-check';
import { errorFromResponse, RequestError } from '../../../lib/http';

/**
 * POST /api/face-check: the server checks the photo in memory (one usable face, light, size) and
 * drops it. Upload progress is reported 0..1 through `onUploadProgress`.
 */
export function checkFace(photo: Blob, onUploadProgress: (fraction: number) => void): Promise<FaceCheckOk> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', '/api/face-check');
    request.setRequestHeader('content-type', photo.type || 'application/octet-stream');
    request.upload.onprogress = (event) => event.lengthComputable && onUploadProgress(event.loaded / event.total);
    request.onerror = () => reject(new RequestError('Network Error', 'NETWORK_ERROR', 0));
    request.onload = async () => {
      const response = new Response(request.responseText, { status: request.status, headers: { 'content-type': 'application/json' } });
      if (!response.ok) return reject(await errorFromResponse(response));
      resolve((await response.json()) as FaceCheckOk);
    };
    request.send(photo);
  });
}
