import { describe, expect, it } from 'vitest';
import { uuidPrefixRange } from './queues.repository';

describe('the id range a subscription id prefix stands for (the search, ADR 190)', () => {
  it('pads the prefix to the lowest and highest id, keeping the hyphens where an id has them', () => {
    expect(uuidPrefixRange('0f3a')).toEqual({
      low: '0f3a0000-0000-0000-0000-000000000000',
      high: '0f3affff-ffff-ffff-ffff-ffffffffffff',
    });
    expect(uuidPrefixRange('0f3a1b2c-9')).toEqual({
      low: '0f3a1b2c-9000-0000-0000-000000000000',
      high: '0f3a1b2c-9fff-ffff-ffff-ffffffffffff',
    });
    const id = '0f3a1b2c-9d8e-4f70-8a6b-5c4d3e2f1a0b';
    expect(uuidPrefixRange(id)).toEqual({ low: id, high: id });
  });

  it('stands for no id when no id’s text starts with the prefix', () => {
    expect(uuidPrefixRange('uyer1234')).toBeNull();
    expect(uuidPrefixRange('0f3a1b2c9')).toBeNull(); // a digit where the hyphen is
    expect(uuidPrefixRange('0f3-')).toBeNull();
    expect(uuidPrefixRange('0f3a1b2c-9d8e-4f70-8a6b-5c4d3e2f1a0b0')).toBeNull();
  });
});
