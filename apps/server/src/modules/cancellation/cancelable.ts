import { API_MESSAGES, type PlanCatalog } from '@roots/contracts';
import { AppError } from '../../errors';
import { agreedTermsOf, type PlanTerms } from '../billing/plan-terms';

/**
 * What a cancel may act on (issue 23): a plan that renews and has not ended. A one-time pack has no
 * renewal to cancel (the money-back refund ends it); an ended subscription is left as it is.
 * @throws AppError CONFLICT (409) with the reason otherwise.
 */
export function assertCancelable(row: { planId: string; status: string; agreedTerms: PlanTerms | null }, catalog: PlanCatalog): void {
  if (agreedTermsOf(catalog, row)?.recurring !== true) throw new AppError('CONFLICT', API_MESSAGES.oneTimeNotCancelable);
  if (row.status === 'expired') throw new AppError('CONFLICT', API_MESSAGES.alreadyEnded);
}
