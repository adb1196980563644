import type { PlanCatalog } from '@roots/contracts/plans';
import { getPlans } from '../../lib/api-client';
import { useResource } from '../../lib/use-resource';

/** The operator's browser time zone (IANA name), e.g. `Europe/Berlin`. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * An ISO instant in the operator's own time zone, with the zone shown: `26 Nov 2026, 13:05 GMT+1`.
 * Null and empty stay empty; `timeZone` is for tests (default: the browser's).
 */
export function formatLocalTime(iso: string | null | undefined, timeZone: string = browserTimeZone()): string {
  if (!iso) return '';
  // dateStyle/timeStyle cannot be combined with timeZoneName: the fields are named one by one.
  return new Intl.DateTimeFormat(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone,
    timeZoneName: 'short',
  }).format(new Date(iso));
}

/** A plan's or single purchase's name from the catalog; the id when the catalog no longer has it. */
export function planNameIn(catalog: PlanCatalog | null, planId: string): string {
  if (!catalog) return planId;
  return (
    catalog.plans.find((plan) => plan.id === planId)?.name ??
    catalog.singlePurchases.find((item) => item.id === planId)?.summary.name ??
    planId
  );
}

/** The plan catalog the console names plans from (null until loaded, or when it cannot be read). */
export function usePlanCatalog(): PlanCatalog | null {
  const catalog = useResource('plan-catalog', (signal) => getPlans(signal));
  return catalog.status === 'ready' ? catalog.data : null;
}
