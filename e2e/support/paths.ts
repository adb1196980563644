import { fileURLToPath } from 'node:url';

/** The FairFace dev set kept in the repository (packages/analysis/data/fairface-dev, CC BY 4.0). */
export const DATASET_DIR = fileURLToPath(new URL('../../packages/analysis/data/fairface-dev', import.meta.url));
/** A real face the analysis engine accepts, fed to the fake camera. */
export const CAMERA_FACE = `${DATASET_DIR}/images/ff125tr_0038488286d8.jpg`;
/** Where the fake camera's video file is written before the browser starts. */
export const CAMERA_Y4M = fileURLToPath(new URL('../../.cache/e2e/face.y4m', import.meta.url));
