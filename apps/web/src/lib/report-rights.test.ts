import type { ReportStatus } from '@roots/contracts/reports';
import { describe, expect, it } from 'vitest';
import { includesReports, reportOwed } from './report-rights';

const reports = (...statuses: ReportStatus[]) => statuses.map((status) => ({ status }));

describe('report rights (ADR 145)', () => {
  it('every purchase includes reports, Profile Pro too (ADR 194); no live purchase includes none', () => {
    for (const kind of ['subscription', 'profile_pro', 'report', 'ultimate_pack', 'premium_one_month', 'gift_one_month'] as const)
      expect(includesReports([kind]), kind).toBe(true);
    expect(includesReports([])).toBe(false);
  });

  it('a report is owed while none is completed or being made', () => {
    expect(reportOwed(['subscription'], [])).toBe(true);
    expect(reportOwed(['subscription'], reports('failed', 'expired'))).toBe(true);
    expect(reportOwed(['subscription'], reports('failed', 'completed'))).toBe(false);
    expect(reportOwed(['subscription'], reports('pending'))).toBe(false);
    expect(reportOwed(['subscription'], reports('processing', 'failed'))).toBe(false);
    // A Profile Pro buyer without a report is owed one (issue 35: the home said 'No report yet' with no way to it).
    expect(reportOwed(['profile_pro'], [])).toBe(true);
    expect(reportOwed(['profile_pro'], reports('completed'))).toBe(false);
    expect(reportOwed([], [])).toBe(false);
  });
});
