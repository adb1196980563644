import { lazy } from 'react';
import { preloadCaptureSteps } from '../../components/selfie/capture-view';

/**
 * The steps after the first screen, each in its own chunk so the landing's first paint carries only
 * the walkthrough (or quiz): the email form alone would bring zod and the form library. The chunks
 * are fetched once the visitor moves past the first slide or question (`preloadLaterSteps`), well
 * before they are needed, and React.lazy shows them at once when they are already loaded. The
 * selfie capture's screens are shared with the signed-in app (`components/selfie`).
 */
const loadEmail = () => import('./email-step');

export const EmailStep = lazy(async () => ({ default: (await loadEmail()).EmailStep }));

/** Starts fetching every later step's chunk; the module cache makes repeated calls free. */
export function preloadLaterSteps(): void {
  preloadCaptureSteps();
  void loadEmail().catch(() => undefined);
}
