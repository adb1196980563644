import { describe, expect, it } from 'vitest';
import { toCsv } from './csv';

describe('toCsv', () => {
  it('writes a header and rows, quoting what needs quotes', () => {
    expect(
      toCsv(
        ['day', 'note', 'count'],
        [
          ['2026-03-01', 'a, "b"', 4],
          ['2026-03-02', null, 0],
        ],
      ),
    ).toBe('day,note,count\r\n2026-03-01,"a, ""b""",4\r\n2026-03-02,,0\r\n');
  });

  it('defuses cells a spreadsheet would run as a formula', () => {
    expect(toCsv(['text'], [['=HYPERLINK("x")'], ['-1+2'], [-3]])).toBe('text\r\n"\'=HYPERLINK(""x"")"\r\n\'-1+2\r\n-3\r\n');
  });

  it('defuses cells starting with TAB or CR, which spreadsheets strip before reading a formula (issue 22)', () => {
    expect(toCsv(['text'], [['\t=1+1'], ['\r=cmd']])).toBe('text\r\n\'\t=1+1\r\n"\'\r=cmd"\r\n');
  });
});
