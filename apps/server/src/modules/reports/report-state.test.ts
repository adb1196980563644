import { REPORT_STATUSES, type ReportStatus } from '@roots/contracts/reports';
import { describe, expect, it } from 'vitest';
import { InvalidReportTransitionError, statusesAccepting, transition, type ReportEvent } from './report-state';

const EVENTS: ReportEvent[] = ['claimed', 'analysed', 'rejected', 'timed_out'];

const ALLOWED: Record<string, ReportStatus> = {
  'pending:claimed': 'processing',
  'pending:timed_out': 'expired',
  'processing:analysed': 'completed',
  'processing:rejected': 'failed',
  'processing:timed_out': 'expired',
};

describe('report state machine', () => {
  for (const from of REPORT_STATUSES) {
    for (const event of EVENTS) {
      const expected = ALLOWED[`${from}:${event}`];
      it(`${from} --${event}--> ${expected ?? 'refused'}`, () => {
        if (expected) expect(transition(from, event)).toBe(expected);
        else expect(() => transition(from, event)).toThrow(InvalidReportTransitionError);
      });
    }
  }

  it('knows which statuses each event moves from', () => {
    expect(statusesAccepting('claimed')).toEqual(['pending']);
    expect(statusesAccepting('analysed')).toEqual(['processing']);
    expect(statusesAccepting('rejected')).toEqual(['processing']);
    expect(statusesAccepting('timed_out')).toEqual(['pending', 'processing']);
  });
});
