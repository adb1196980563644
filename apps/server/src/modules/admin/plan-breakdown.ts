import type { DateRangeQuery } from '@roots/contracts/admin';
import type { PlanBreakdown } from '@roots/contracts/admin-queues';
import type { BillingContext } from '../subscriptions/context';
import { instantsOf } from './date-range';
import { planNameOf } from './queues';
import type { QueuesRepository } from './queues.repository';

/**
 * The Plans table (issue 25), with deliberately simple definitions: `active` counts top-level
 * subscriptions paying now (`active` or `past_due`), `trialing` those in their trial now; revenue is
 * the succeeded charges of the range and refunds the refunds made in it, per plan, in minor units.
 * Every catalog plan has a row; a plan no longer in the catalog that someone holds has one too.
 */
export async function planBreakdown(
  deps: { context: BillingContext; repository: QueuesRepository },
  range: DateRangeQuery,
): Promise<PlanBreakdown> {
  const { context, repository } = deps;
  const { catalog } = context.config;
  const [live, money] = await Promise.all([
    repository.liveByPlanAndStatus(context.db),
    repository.moneyByPlan(context.db, instantsOf(range)),
  ]);
  const rows = new Map<string, PlanBreakdown['plans'][number]>();
  const rowOf = (planId: string) => {
    let row = rows.get(planId);
    if (!row) {
      row = { plan_id: planId, plan_name: planNameOf(catalog, planId), active: 0, trialing: 0, revenue_minor: 0, refunded_minor: 0 };
      rows.set(planId, row);
    }
    return row;
  };
  for (const plan of catalog.plans) rowOf(plan.id);
  for (const item of live) {
    const row = rowOf(item.plan_id);
    if (item.status === 'trialing') row.trialing += item.count;
    else row.active += item.count;
  }
  for (const item of money) {
    const row = rowOf(item.plan_id);
    row.revenue_minor += Number(item.revenue_minor);
    row.refunded_minor += Number(item.refunded_minor);
  }
  return { plans: [...rows.values()] };
}
