import { describe, expect, it } from 'vitest';
import { commaSeparated } from './env-values';

describe('comma-separated configuration values', () => {
  it('trims each item and drops empty ones', () => {
    expect(commaSeparated(' http://a:1 ,http://b:2,, ')).toEqual(['http://a:1', 'http://b:2']);
    expect(commaSeparated('')).toEqual([]);
    expect(commaSeparated('one')).toEqual(['one']);
  });
});
