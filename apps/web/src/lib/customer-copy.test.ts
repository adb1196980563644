import { ANALYSIS_ERROR_MESSAGES, MESSAGES } from '@roots/contracts/messages';
import { DEFAULT_PRODUCT_COPY } from '@roots/contracts/product-defaults';
import { RELIABILITY_EXPLAINED } from '@roots/contracts/heritage-wording';
import { describe, expect, it } from 'vitest';
import { CHECKOUT_FAILURE_WORDS } from './checkout-words';
import { createI18n } from './i18n';

/** Every string in a nested copy object, with its key path. */
function strings(value: unknown, path = ''): Array<[string, string]> {
  if (typeof value === 'string') return [[path, value]];
  if (value && typeof value === 'object')
    return Object.entries(value as Record<string, unknown>).flatMap(([key, child]) => strings(child, path ? `${path}.${key}` : key));
  return [];
}

/** Words of payment and engineering trade a customer is not expected to know (issue 24). */
const JARGON = /\b3-?DS\b|\bSCA\b|\bBIN\b|\bPSP\b|\bacquirer\b|\binstrument\b|\bexecution\b|\btokeni[sz]|\bwebhook\b|\bidempoten/i;

describe('customer copy is free of jargon (issue 24)', () => {
  it('every en-US screen string, catalogue message and checkout failure text', () => {
    const bundle = createI18n('Roots').getResourceBundle('en-US', 'translation') as unknown;
    const copy = [
      ...strings(bundle, 'i18n'),
      ...strings(MESSAGES, 'MESSAGES'),
      ...strings(ANALYSIS_ERROR_MESSAGES, 'ANALYSIS_ERROR_MESSAGES'),
      ...strings(DEFAULT_PRODUCT_COPY, 'DEFAULT_PRODUCT_COPY'),
      ...strings(CHECKOUT_FAILURE_WORDS, 'CHECKOUT_FAILURE_WORDS'),
      ['RELIABILITY_EXPLAINED', RELIABILITY_EXPLAINED] as [string, string],
    ];
    expect(copy.length).toBeGreaterThan(200);
    expect(copy.filter(([, text]) => JARGON.test(text))).toEqual([]);
  });

  it('the SDK’s "Authorization failed after 3DS challenge." reaches a customer in plain words', () => {
    const [[sdk, shown]] = Object.entries(CHECKOUT_FAILURE_WORDS) as [[string, string]];
    expect(sdk).toMatch(/3DS/);
    expect(shown).not.toMatch(JARGON);
    expect(shown).toContain('nothing was charged');
  });
});
