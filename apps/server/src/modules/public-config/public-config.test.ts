import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/env';
import { buildPublicConfig, copyWarnings, formatCopyWarning } from './public-config';

describe('marketing claims checked against the plans at start-up', () => {
  it('has nothing to warn about on the default copy and catalog', () => {
    expect(copyWarnings(loadConfig({}))).toEqual([]);
  });

  it('warns about a configured claim untrue of a plan, naming the plan and what is wrong', () => {
    const config = loadConfig({ PRODUCT_COPY: JSON.stringify({ trialClaim: '7-day trial' }) });
    const lines = copyWarnings(config).map(formatCopyWarning);
    expect(lines).toContain(
      'PRODUCT_COPY.trialClaim "7-day trial" is not shown with plan roots_3d1_7d2499: says a 7-day trial; the plan has a 3-day trial',
    );
    // Both weekly trial plans are named; plans without a trial never show a trial claim.
    expect(lines.filter((line) => line.startsWith('PRODUCT_COPY.trialClaim'))).toHaveLength(2);
  });

  it('warns when the guarantee window claimed is not the configured one', () => {
    const config = loadConfig({ MONEY_BACK_GUARANTEE_DAYS: '14' });
    expect(copyWarnings(config).map((warning) => warning.key)).toEqual(['guaranteeText']);
  });

  it("shows the landing the default plan's own discount", () => {
    const config = loadConfig({ PLAN_OVERRIDES: JSON.stringify({ roots_3d1_7d2499: { discount_percent: 60 } }) });
    expect(buildPublicConfig(config).copy.discountClaim).toBe('Get 60% Discount Today');
    expect(buildPublicConfig(loadConfig({})).copy.discountClaim).toBe('Get 85% Discount Today');
  });
});
