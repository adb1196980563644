import type { GeoPolicy } from '@roots/contracts/admin';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config/env';
import { countryOf } from '../events/geo';

/** Endpoints that run the face analysis: refused where the geo policy does not offer it. */
export const FACE_ANALYSIS_ROUTES: ReadonlyArray<{ method: string; url: string }> = [
  { method: 'POST', url: '/api/face-check' },
  { method: 'POST', url: '/report/create' },
];

/** What the geo policy gives a country (ADR 123). An unknown country ('') gets the face analysis. */
export function policyFor(
  config: Pick<Config, 'FACE_ANALYSIS_BLOCKED_COUNTRIES' | 'FACE_ANALYSIS_BLOCKED_OFFER'>,
  country: string,
): GeoPolicy {
  const blocked = country !== '' && config.FACE_ANALYSIS_BLOCKED_COUNTRIES.includes(country);
  return { country, face_analysis: !blocked, fallback: config.FACE_ANALYSIS_BLOCKED_OFFER };
}

/** The geo policy of the request's country (COUNTRY_HEADER behind TRUST_PROXY, else GeoIP). */
export function policyOfRequest(config: Config, request: FastifyRequest): GeoPolicy {
  const country = countryOf(request, { countryHeader: config.COUNTRY_HEADER, trustProxy: config.TRUST_PROXY !== 'false' });
  return policyFor(config, country);
}
