import type { ReportStatus } from '@roots/contracts/reports';
import { describe, expect, it } from 'vitest';
import { includesReports, reportOwed } from './report-rights';

const reports = (...statuses: ReportStatus[]) => statuses.map((status) => ({ status }));

describe('report rights (ADR 145)', () => {
  it('every purchase with the face analysis includes reports; Profile Pro alone does not', () => {
    for (const kind of ['subscription', 'report', 'ultimate_pack', 'premium_one_month', 'gift_one_month'] as const)
      expect(includesReports([kind]), kind).toBe(true);
    expect(includesReports(['profile_pro'])).toBe(false);
    expect(includesReports([])).toBe(false);
  });

  it('a report is owed while none is completed or being made', () => {
    expect(reportOwed(['subscription'], [])).toBe(true);
    expect(reportOwed(['subscription'], reports('failed', 'expired'))).toBe(true);
    expect(reportOwed(['subscription'], reports('failed', 'completed'))).toBe(false);
    expect(reportOwed(['subscription'], reports('pending'))).toBe(false);
    expect(reportOwed(['subscription'], reports('processing', 'failed'))).toBe(false);
    expect(reportOwed(['profile_pro'], [])).toBe(false);
  });
});
