import { describe, expect, it } from 'vitest';
import { compactAttribution, eventRequestSchema, eventValue, PURCHASE_EVENT_NAMES } from './events';

describe('funnel event rules (product-spec §3, §9)', () => {
  it('values an event at 75% of the amount, rounded to 2 decimals', () => {
    expect(eventValue(24.99)).toBe(18.74);
    expect(eventValue(1)).toBe(0.75);
    expect(eventValue(49.99)).toBe(37.49);
    expect(eventValue(14.99)).toBe(11.24);
    expect(eventValue(0)).toBe(0);
  });

  it('drops empty attribution values', () => {
    expect(compactAttribution({ project: 'roots', ad_id: '', fbc: '   ', fbp: 'fb.1' })).toEqual({ project: 'roots', fbp: 'fb.1' });
    expect(compactAttribution(undefined)).toEqual({});
  });
});

describe('funnel event bodies', () => {
  it('refuse purchase event names, which the server records once with the verified purchase', () => {
    for (const name of PURCHASE_EVENT_NAMES) expect(eventRequestSchema.safeParse({ event: name }).success, name).toBe(false);
    expect(eventRequestSchema.safeParse({ event: 'payment modal' }).success).toBe(true);
  });
});
