import { matchRoutes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

/** The in-app selfie route's screen for a visitor whose country gets `face_analysis` (a fresh page load each). */
async function selfieScreenFor(faceAnalysis: boolean) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Response.json({ country: faceAnalysis ? 'US' : 'DE', face_analysis: faceAnalysis, fallback: 'insights' })),
  );
  const { createRoutes } = await import('./routes');
  const leaf = (matchRoutes(createRoutes('roots'), '/roots/webapp/selfie') ?? []).at(-1)!.route;
  const lazy = leaf.lazy as () => Promise<{ Component: unknown }>;
  return (await lazy()).Component;
}

describe('the in-app selfie where the face analysis is not offered (issue 35)', () => {
  it('shows the geo-policy screen before any consent or upload', async () => {
    const { GeoPolicyScreen } = await import('../features/geo-policy/geo-policy-screen');
    expect(await selfieScreenFor(false)).toBe(GeoPolicyScreen);
  });

  it('is the selfie screen where it is offered', async () => {
    const { SelfieScreen } = await import('../features/webapp-selfie/selfie-screen');
    expect(await selfieScreenFor(true)).toBe(SelfieScreen);
  });
});
