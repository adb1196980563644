import { buildPlanCatalog } from '@roots/contracts';
import { describe, expect, it } from 'vitest';
import { planTerms } from '../terms/plan-terms';
import { everyPeriod, receiptEmail, trialReminderEmail } from './email-templates';

const catalog = buildPlanCatalog('roots');

describe('emails state the renewal period of the plan bought', () => {
  it('words periods as the paywall does', () => {
    expect(everyPeriod({ unit: 'day', count: 7 })).toBe('every week');
    expect(everyPeriod({ unit: 'month', count: 3 })).toBe('every 3 months');
    expect(everyPeriod({ unit: 'month', count: 1 })).toBe('every month');
    expect(everyPeriod({ unit: 'day', count: 10 })).toBe('every 10 days');
  });

  it('the trial reminder and receipt of each recurring plan say its own period and price', () => {
    for (const plan of catalog.plans.filter((candidate) => candidate.length !== 'lifetime')) {
      const terms = planTerms(catalog, plan.id)!;
      const words = plan.length === '7d' ? 'every week' : 'every 3 months';
      const reminder = trialReminderEmail({
        productName: 'Roots',
        planName: terms.name,
        convertsAt: new Date('2026-12-01T00:00:00Z'),
        amountMinor: terms.renewalAmountMinor!,
        renewalPeriod: terms.renewalPeriod!,
        cardLast4: '4242',
        cancelUrl: 'https://roots.example/cancel',
      });
      expect(reminder.text, plan.id).toContain(`and again ${words} until you cancel`);
      expect(reminder.text, plan.id).toContain(`$${plan.sum % 1 === 0 ? plan.sum : plan.sum.toFixed(2)}`);
      const receipt = receiptEmail({
        chargeId: '0f8fad5b-d9cb-469f-a165-70867728950e',
        chargedAt: new Date('2026-11-24T09:00:00Z'),
        charge: { kind: 'trial', trialDays: 3 },
        productName: 'Roots',
        planName: terms.name,
        amountMinor: terms.firstAmountMinor,
        termsText: terms.disclosure.terms_text,
        nextChargeAt: new Date('2026-12-01T00:00:00Z'),
        nextChargeMinor: terms.renewalAmountMinor,
        renewalPeriod: terms.renewalPeriod,
        cardLast4: null,
        cancelUrl: null,
      });
      expect(receipt.text, plan.id).toContain(`on December 1, 2026, then ${words} until you cancel.`);
    }
  });
});
