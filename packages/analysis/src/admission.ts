/**
 * `@roots/analysis/admission`: what decides, before any decoder or worker, whether a photo is let in
 * (ADR 164, ADR 165). Light on purpose (no libvips, no models, no workers): the server and the
 * analyzer service run it on their request thread for every upload.
 */
export {
  ACCEPTED_IMAGE_FORMATS,
  HEADER_WINDOW_BYTES,
  MAX_INPUT_BYTES,
  MAX_INPUT_PIXELS,
  screenImage,
  type AcceptedImageFormat,
  type ScreenedImage,
} from './image/screen.js';
export { FairQueue, type FairQueueLimits, type QueueStats, type Refusal, type Ticket } from './pool/fair-queue.js';
export { type AnalysisError, type AnalysisErrorCode, isAnalysisError } from './errors.js';
