import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { CAMERA_FACE, CAMERA_Y4M } from './paths';
import { writeY4m } from './y4m';

/** Prepares the fake camera's video from a real face image before any browser starts. */
export default async function globalSetup(): Promise<void> {
  mkdirSync(dirname(CAMERA_Y4M), { recursive: true });
  await writeY4m(CAMERA_FACE, CAMERA_Y4M);
}
