import { FACE_ANALYSIS_NOT_OFFERED, type GeoPolicy } from '@roots/contracts/admin';
import { accessKindForPlan, FACE_ANALYSIS_ACCESS_KINDS } from '@roots/contracts/subscriptions';
import { AppError } from '../../errors';
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

/**
 * The geo policy holds at the sale (issue 24): a plan that includes the face analysis is not sold
 * where the analysis is not offered, so nobody pays for what they cannot use. Checked before a
 * gateway session opens and again when a purchase is created (a payment that slips through is left
 * unclaimed, and the payment sweep refunds it).
 * @throws AppError FORBIDDEN (403) with the geo policy's message.
 */
export function assertPlanOffered(config: Config, request: FastifyRequest, planId: string): void {
  if (!FACE_ANALYSIS_ACCESS_KINDS.includes(accessKindForPlan(planId))) return;
  if (!policyOfRequest(config, request).face_analysis) throw new AppError('FORBIDDEN', FACE_ANALYSIS_NOT_OFFERED);
}
