import { describe, expect, it } from 'vitest';
import { buildDisclosure, formatUsd } from './disclosure';
import { buildPlanCatalog } from './plans';

const plan = (suffix: string) => buildPlanCatalog('roots').plans.find((p) => p.id === `roots_${suffix}`)!;

describe('pay-button disclosure from plan data', () => {
  it('formats dollars as the button reads them', () => {
    expect(formatUsd(1)).toBe('$1');
    expect(formatUsd(24.99)).toBe('$24.99');
    expect(formatUsd(49)).toBe('$49');
  });

  it('says the trial price, then the weekly price until cancelled', () => {
    const d = buildDisclosure(plan('3d1_7d2499'));
    expect(d.payButton).toBe('Pay $1 and start trial');
    expect(d.firstCharge).toBe('Today you pay $1 for your 3-day trial.');
    expect(d.renewal).toBe('Then $24.99 every week, charged automatically to the same card until you cancel.');
    expect(d.text).toContain(d.cancellation);
  });

  it('follows the plan when an operator changes its prices', () => {
    const [weekly] = buildPlanCatalog('roots', { roots_3d1_7d2499: { trial_sum: 2.5, sum: 19.99 } }).plans;
    const d = buildDisclosure(weekly!);
    expect(d.payButton).toBe('Pay $2.50 and start trial');
    expect(d.renewal).toContain('$19.99 every week');
  });

  it('describes the 3-month introductory price and one-time packs', () => {
    expect(buildDisclosure(plan('3m4800_3m4999')).renewal).toBe(
      'Then $49.99 every 3 months, charged automatically to the same card until you cancel.',
    );
    const pack = buildDisclosure(plan('ultimate_pack_4999_otp'));
    expect(pack.payButton).toBe('Pay $49.99');
    expect(pack.renewal).toBeNull();
  });
});
