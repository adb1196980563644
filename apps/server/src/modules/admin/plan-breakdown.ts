import type { DateRangeQuery } from '@roots/contracts/admin';
import type { PlanBreakdown } from '@roots/contracts/admin-queues';
import { planTerms } from '../terms/plan-terms';
import type { BillingContext } from '../subscriptions/context';
import { instantsOf } from './date-range';
import { firstPaidPeriod, metricTermsOf, priceLabel } from './metrics';
import { MetricsRepository } from './metrics.repository';
import type { QueuesRepository } from './queues.repository';

/**
 * The Plans table (issue 25; docs/metrics.md, "Plans"), counted by the Revenue tab's rules (issue
 * 36): one row per plan and price as its buyers agreed; `active` are the recurring purchases paying
 * now (a paid introductory period included, past due included, a canceled one until its paid period
 * ends), `trialing` those still in their trial, `one_time_with_access` the one-time purchases and
 * add-ons that still give access (no subscription). Revenue is the succeeded charges of the range
 * and refunds the refunds made in it, per plan id, on the row of the catalog's price. Every catalog
 * plan has a row; a plan or price no longer in the catalog that someone holds has one too.
 */
export async function planBreakdown(
  deps: { context: BillingContext; repository: QueuesRepository },
  range: DateRangeQuery,
): Promise<PlanBreakdown> {
  const { context, repository } = deps;
  const { catalog } = context.config;
  const [holding, money] = await Promise.all([
    new MetricsRepository().holding(context.db),
    repository.moneyByPlan(context.db, instantsOf(range)),
  ]);
  const rows = new Map<string, PlanBreakdown['plans'][number]>();
  const rowOf = (planId: string, terms: ReturnType<typeof metricTermsOf>) => {
    const price = priceLabel(terms);
    const key = `${planId}\u0000${price}`;
    let row = rows.get(key);
    if (!row) {
      row = {
        plan_id: planId,
        plan_name: terms.name,
        price,
        active: 0,
        trialing: 0,
        one_time_with_access: 0,
        revenue_minor: 0,
        refunded_minor: 0,
      };
      rows.set(key, row);
    }
    return row;
  };
  const catalogRow = (planId: string) => rowOf(planId, planTerms(catalog, planId) ?? metricTermsOf(catalog, planId, null));
  for (const plan of catalog.plans) catalogRow(plan.id);
  for (const item of holding) {
    const terms = metricTermsOf(catalog, item.plan_id, item.agreed_terms);
    const row = rowOf(item.plan_id, terms);
    if (!terms.recurring || item.addon) row.one_time_with_access += item.count;
    else if (item.current_period < firstPaidPeriod(terms)) row.trialing += item.count;
    else row.active += item.count;
  }
  for (const item of money) {
    const row = catalogRow(item.plan_id);
    row.revenue_minor += Number(item.revenue_minor);
    row.refunded_minor += Number(item.refunded_minor);
  }
  return { plans: [...rows.values()] };
}
