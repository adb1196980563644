import type { GeoPolicy } from '@roots/contracts/admin';

/**
 * This visitor's geo policy (`GET /api/geo-policy`, decided by the server from the request's
 * country). Without an answer the funnel stays as it is: the server refuses the face analysis
 * itself where it is not offered, so the page never has to be the guard.
 */
export async function fetchGeoPolicy(): Promise<GeoPolicy | null> {
  try {
    const response = await fetch('/api/geo-policy', { credentials: 'same-origin' });
    if (!response.ok) return null;
    return (await response.json()) as GeoPolicy;
  } catch {
    return null;
  }
}
