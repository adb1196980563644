import { describe, expect, it } from 'vitest';
import { addOnSubscriptionId, chargeKeys, orderReferences, parseChargeKey } from './charge-keys';

const SUB = '0b6a1f3e-4c2d-4e8f-9a7b-1c2d3e4f5a6b';
const PARENT = 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b';

describe('charge keys', () => {
  it('keep the stored forms (ledger rows and the gateway hold them)', () => {
    expect(chargeKeys.first('exe_1')).toBe('execution:exe_1');
    expect(chargeKeys.renewal(SUB, 2, 0)).toBe(`sub:${SUB}:period:2`);
    expect(chargeKeys.renewal(SUB, 2, 3)).toBe(`sub:${SUB}:period:2:retry:3`);
    expect(chargeKeys.addOn(PARENT, 'roots_ultimate_pack', 0)).toBe(`addon:${PARENT}:roots_ultimate_pack`);
    expect(chargeKeys.addOn(PARENT, 'roots_ultimate_pack', 1)).toBe(`addon:${PARENT}:roots_ultimate_pack:retry:1`);
    expect(chargeKeys.refund('c1')).toBe('refund:c1');
    expect(chargeKeys.refundRest('c1')).toBe('refund-rest:c1');
    expect(chargeKeys.unmatchedRefund('exe_9')).toBe('unmatched:exe_9');
    expect(orderReferences.renewal(SUB, 4)).toBe(`sub:${SUB}:period:4`);
    expect(orderReferences.addOn('x'.repeat(250))).toHaveLength(200);
    expect(addOnSubscriptionId(PARENT, 'roots_ultimate_pack')).toBe(addOnSubscriptionId(PARENT, 'roots_ultimate_pack'));
    expect(addOnSubscriptionId(PARENT, 'roots_ultimate_pack')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(addOnSubscriptionId(PARENT, 'roots_ultimate_pack')).not.toBe(addOnSubscriptionId(PARENT, 'roots_profile_pro'));
  });

  it('read back what they build, and nothing else', () => {
    expect(parseChargeKey(chargeKeys.first('exe_1'))).toEqual({ kind: 'first', executionId: 'exe_1' });
    expect(parseChargeKey(chargeKeys.renewal(SUB, 2, 3))).toEqual({ kind: 'renewal', subscriptionId: SUB, period: 2, attempt: 3 });
    expect(parseChargeKey(chargeKeys.renewal(SUB, 1, 0))).toEqual({ kind: 'renewal', subscriptionId: SUB, period: 1, attempt: 0 });
    expect(parseChargeKey(chargeKeys.addOn(PARENT, 'roots_report_x', 2))).toEqual({
      kind: 'add-on',
      parentId: PARENT,
      planId: 'roots_report_x',
      attempt: 2,
    });
    expect(parseChargeKey(chargeKeys.refund('c1'))).toEqual({ kind: 'refund', chargeId: 'c1' });
    expect(parseChargeKey(chargeKeys.refundRest('c1'))).toEqual({ kind: 'refund-rest', chargeId: 'c1' });
    expect(parseChargeKey(chargeKeys.unmatchedRefund('exe_9'))).toEqual({ kind: 'unmatched-refund', executionId: 'exe_9' });
    for (const junk of [
      '',
      'sub:x:period:1',
      `sub:${SUB}:period:1:retry:0`,
      `sub:${SUB}:period:1:retry:-1`,
      'refund:',
      'other:1',
      'refund:c1:retry:1',
    ])
      expect(parseChargeKey(junk), junk).toBeUndefined();
  });
});
