import { AppError } from '../../errors';
import type { Config } from '../../config/env';
import { planTerms, type PlanTerms } from '../terms/plan-terms';

/** The plan's terms; `code` says whose fault an unknown plan is (the request's, or ours for a stored one). */
export function sellingTerms(
  catalog: Config['catalog'],
  planId: string,
  failure: string,
  code: 'BAD_REQUEST' | 'INTERNAL_ERROR' = 'BAD_REQUEST',
): PlanTerms {
  const terms = planTerms(catalog, planId);
  if (!terms) throw new AppError(code, failure);
  return terms;
}
