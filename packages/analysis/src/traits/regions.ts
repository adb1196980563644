import type { FaceRegionId } from '@roots/contracts/face-regions';

export type { FaceRegionId };

/**
 * The contract's face regions (`FACE_REGION_IDS`: every one, no other) as outlines of MediaPipe
 * face-mesh landmark indices. Outlines are simplified to at most {@link MAX_POLYGON_POINTS} points
 * before they leave the engine, so they locate a region without describing the face in enough
 * detail to rebuild it.
 */
export const FACE_REGIONS = {
  face_oval: {
    label: 'Face outline',
    outline: [
      10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377, 152, 148, 176, 149, 150, 136, 172, 58, 132,
      93, 234, 127, 162, 21, 54, 103, 67, 109,
    ],
  },
  eyes: {
    label: 'Eyes',
    // Both eyes as one band: upper lids right to left, lower lids back.
    outline: [33, 160, 159, 158, 385, 386, 387, 263, 373, 374, 380, 153, 145, 144],
  },
  right_eye: { label: 'Right eye', outline: [33, 246, 161, 160, 159, 158, 157, 173, 133, 155, 154, 153, 145, 144, 163, 7] },
  left_eye: { label: 'Left eye', outline: [263, 466, 388, 387, 386, 385, 384, 398, 362, 382, 381, 380, 374, 373, 390, 249] },
  brows: {
    label: 'Eyebrows',
    outline: [70, 63, 105, 66, 107, 336, 296, 334, 293, 300, 276, 283, 282, 295, 285, 55, 65, 52, 53, 46],
  },
  nose: { label: 'Nose', outline: [168, 351, 358, 327, 2, 98, 129, 122] },
  mouth: {
    label: 'Lips',
    outline: [61, 185, 40, 39, 37, 0, 267, 269, 270, 409, 291, 375, 321, 405, 314, 17, 84, 181, 91, 146],
  },
  jaw: {
    label: 'Jaw and chin',
    outline: [
      132, 58, 172, 136, 150, 149, 176, 148, 152, 377, 400, 378, 379, 365, 397, 288, 361, 435, 367, 364, 394, 395, 369, 396, 175, 171, 140,
      170, 169, 135, 138, 215,
    ],
  },
  cheekbones: {
    label: 'Cheekbones',
    // One band under the eyes from cheek to cheek.
    outline: [234, 116, 117, 118, 347, 346, 345, 454, 323, 411, 425, 205, 187, 93],
  },
  skin: {
    label: 'Cheeks (skin)',
    outline: [234, 116, 117, 118, 347, 346, 345, 454, 323, 411, 425, 205, 187, 93],
  },
  hairline: {
    label: 'Forehead and hairline',
    outline: [21, 54, 103, 67, 109, 10, 338, 297, 332, 284, 251, 300, 293, 334, 296, 336, 9, 107, 66, 105, 63, 70, 71],
  },
} as const satisfies Record<FaceRegionId, { label: string; outline: readonly number[] }>;

export const MAX_POLYGON_POINTS = 8;
