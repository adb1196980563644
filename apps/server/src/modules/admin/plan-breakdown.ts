import type { DateRangeQuery } from '@roots/contracts/admin';
import type { PlanBreakdown } from '@roots/contracts/admin-queues';
import { planTerms } from '../terms/plan-terms';
import type { BillingContext } from '../subscriptions/context';
import { dayOf, previousDay } from './date-range';
import { firstPaidPeriod, metricTermsOf, priceLabel } from './metrics';
import { foldPurchaseCounts } from '../lifecycle/purchase-counts';
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
  const { context } = deps;
  const { catalog } = context.config;
  const metrics = new MetricsRepository();
  // Revenue and refunds from the charges' daily groups, as the Revenue tab reads them (finished days
  // rolled up, ADR 157; the rest from the ledger).
  const now = context.clock.now();
  const yesterday = previousDay(dayOf(now));
  await Promise.all([metrics.rollUpCharges(context.db, yesterday, now), foldPurchaseCounts(context.db)]);
  const [holding, groups] = await Promise.all([metrics.holding(context.db), metrics.chargeGroupsOfDays(context.db, range.from, range.to)]);
  // Succeeded charges and refunds of a purchase (a refund of a payment no purchase claimed is not a plan's), per plan.
  const money = new Map<string, { revenue: number; refunded: number }>();
  for (const group of groups) {
    if (group.automatic || group.status !== 'succeeded') continue;
    const entry = money.get(group.plan_id) ?? { revenue: 0, refunded: 0 };
    if (group.kind === 'refund') entry.refunded += Number(group.amount_minor);
    else entry.revenue += Number(group.amount_minor);
    money.set(group.plan_id, entry);
  }
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
  for (const [planId, item] of money) {
    const row = catalogRow(planId);
    row.revenue_minor += item.revenue;
    row.refunded_minor += item.refunded;
  }
  return { plans: [...rows.values()] };
}
