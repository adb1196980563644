import { describe, expect, it } from 'vitest';
import { formatLocalTime, planNameIn } from './admin-format';
import type { PlanCatalog } from '@roots/contracts/plans';

describe('the console’s times and plan names', () => {
  it('shows an instant in the given zone with the zone named, never the ISO text', () => {
    const shown = formatLocalTime('2026-03-10T12:00:00.000Z', 'Asia/Kolkata');
    // 17:30 or 5:30 PM: the clock style is the operator's locale's.
    expect(shown).toMatch(/17:30|0?5:30\sPM/);
    expect(shown).toContain('GMT+5:30');
    expect(shown).not.toContain('2026-03-10T');
    expect(formatLocalTime('2026-03-10T12:00:00.000Z', 'UTC')).toMatch(/12:00/);
    expect(formatLocalTime(null)).toBe('');
  });

  it('names a plan from the catalog, and keeps the id of one the catalog no longer has', () => {
    const catalog = {
      plans: [{ id: 'roots_weekly', name: 'Weekly Plan' }],
      singlePurchases: [{ id: 'roots_pack', summary: { name: 'Ultimate Pack' } }],
      defaultPlanId: 'roots_weekly',
    } as unknown as PlanCatalog;
    expect(planNameIn(catalog, 'roots_weekly')).toBe('Weekly Plan');
    expect(planNameIn(catalog, 'roots_pack')).toBe('Ultimate Pack');
    expect(planNameIn(catalog, 'roots_gone')).toBe('roots_gone');
    expect(planNameIn(null, 'roots_weekly')).toBe('roots_weekly');
  });
});
