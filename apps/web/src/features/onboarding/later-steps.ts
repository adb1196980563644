import { lazy } from 'react';

/**
 * The steps after the first screen, each in its own chunk so the landing's first paint carries only
 * the walkthrough (or quiz): the email form alone would bring zod and the form library. The chunks
 * are fetched once the visitor moves past the first slide or question (`preloadLaterSteps`), well
 * before they are needed, and React.lazy shows them at once when they are already loaded.
 */
const loaders = {
  consent: () => import('./consent-step'),
  cameraTip: () => import('./camera-tip-step'),
  selfie: () => import('./selfie-step'),
  processing: () => import('./processing-step'),
  email: () => import('./email-step'),
};

export const ConsentStep = lazy(async () => ({ default: (await loaders.consent()).ConsentStep }));
export const CameraTipStep = lazy(async () => ({ default: (await loaders.cameraTip()).CameraTipStep }));
export const SelfieStep = lazy(async () => ({ default: (await loaders.selfie()).SelfieStep }));
export const ProcessingStep = lazy(async () => ({ default: (await loaders.processing()).ProcessingStep }));
export const EmailStep = lazy(async () => ({ default: (await loaders.email()).EmailStep }));

/** Starts fetching every later step's chunk; the module cache makes repeated calls free. */
export function preloadLaterSteps(): void {
  for (const load of Object.values(loaders)) void load().catch(() => undefined);
}
