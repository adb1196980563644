import { describe, expect, it } from 'vitest';
import { calendarDateOf, dayNumberOf } from './calendar-date';

describe('calendar dates', () => {
  it('counts days since 1970-01-01 in UTC', () => {
    expect(dayNumberOf('1970-01-01')).toBe(0);
    expect(dayNumberOf('2000-03-01') - dayNumberOf('2000-02-28')).toBe(2); // 2000 is a leap year
    expect(dayNumberOf('1900-03-01') - dayNumberOf('1900-02-28')).toBe(1); // 1900 is not
  });

  it('round-trips', () => {
    for (const date of ['1899-12-31', '1970-01-01', '2024-02-29', '2099-12-31']) expect(calendarDateOf(dayNumberOf(date))).toBe(date);
  });

  it.each(['2023-02-29', '2024-13-01', '2024-1-01', '2024-01-01T00:00', ''])('rejects %j', (date) => {
    expect(() => dayNumberOf(date)).toThrow(expect.objectContaining({ code: 'INVALID_DATE' }) as Error);
  });
});
