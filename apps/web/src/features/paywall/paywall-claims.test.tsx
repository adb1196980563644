import { buildPlanCatalog, type PlanCatalog } from '@roots/contracts';
import { ACCESS_GIVES } from '@roots/contracts/access';
import { cleanup, screen, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '../../lib/test-render';
import { PaywallScreen } from './paywall-screen';

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

/** The paywall at `query`, with the server's catalog `catalog`; resolves once the plan is on screen. */
async function openPaywall(query: string, catalog: PlanCatalog = buildPlanCatalog('roots')) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url === '/api/plans') return json(catalog);
      throw new Error(`unexpected call ${url}`);
    }),
  );
  renderRoutes([{ path: '/roots/subscription', Component: PaywallScreen }], `/roots/subscription?${query}`);
  return screen.findByTestId('paywall-screen');
}

beforeEach(() => sessionStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('a discount only beside the struck reference price it is computed from (issue 24, ADR 148)', () => {
  it('says no discount for the 3-month plan: it has no reference price ($48 then $49.99 is no "78%")', async () => {
    const page = await openPaywall('plan=roots_3m4800_3m4999');
    expect(page.textContent).not.toMatch(/discount|% off|−\d+%/i);
    expect(page.querySelector('s, del')).toBeNull();
  });

  it('says no discount for the weekly trial: $9.99 → $1 is not its 85%', async () => {
    const page = await openPaywall('plan=roots_3d1_7d2499');
    expect(page.textContent).not.toMatch(/discount/i);
  });

  it('with a reference price whose arithmetic holds, says the discount in the plan card beside the struck price', async () => {
    await openPaywall('plan=roots_3d1_7d2499', buildPlanCatalog('roots', { roots_3d1_7d2499: { prev_price: 6.67 } }));
    const card = screen.getByRole('region', { name: 'Weekly Plan' });
    expect(within(card).getByTestId('discount-headline').textContent).toBe('Get 85% Discount Today');
    expect(card.querySelector('s')?.textContent).toBe('$6.67');
    expect(within(card).getByTestId('plan-price').textContent).toContain('$1');
  });
});

describe('the skip-trial link names the plan it opens (issue 24)', () => {
  it('to a plan without a trial: "Skip the trial" and that plan, from its data', async () => {
    await openPaywall('skip_trial_plan=roots_3m4800_3m4999');
    expect(screen.getByTestId('skip-trial').textContent).toBe('Skip the trial: 3-month plan, $48 today');
  });

  it('to another trial plan: never "Skip the trial", and the trial it opens is named', async () => {
    await openPaywall('skip_trial_plan=roots_3d5_7d2499');
    const link = screen.getByTestId('skip-trial');
    expect(link.textContent).not.toMatch(/skip the trial/i);
    expect(link.textContent).toBe('Switch to 3-day trial, then weekly plan: $5 today');
    expect(link.getAttribute('href')).toContain('plan=roots_3d5_7d2499');
  });
});

describe('the paywall says what the product gives, from the product data (issue 35, ADR 194)', () => {
  it('Profile Pro: its heritage profile from one selfie, beside the notice that the selfie is asked after payment', async () => {
    const page = await openPaywall('plan=roots_profile_pro_2899_otp');
    expect(within(page).getByRole('heading', { level: 2 }).textContent).toBe('Profile Pro');
    expect(within(page).getByTestId('plan-gives').textContent).toBe(ACCESS_GIVES.profile_pro);
    expect(within(page).getByTestId('selfie-notice').textContent).toBe('We will ask for your selfie after payment, in your account.');
  });

  it('each other product its own line', async () => {
    for (const [query, kind] of [
      ['plan=roots_3d1_7d2499', 'subscription'],
      ['plan=roots_report_1499_otp', 'report'],
      ['plan=roots_ultimate_pack_4999_otp', 'ultimate_pack'],
      ['plan=roots_gift_one_month', 'gift_one_month'],
    ] as const) {
      const page = await openPaywall(query);
      expect(within(page).getByTestId('plan-gives').textContent, query).toBe(ACCESS_GIVES[kind]);
      cleanup();
    }
  });
});
