import type { SubscriptionSummary } from '@roots/contracts/subscriptions';
import { cleanup, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '../../lib/test-render';
import { PastDueNotice } from './past-due-notice';

const mocks = vi.hoisted(() => ({ subscriptions: [] as SubscriptionSummary[] }));
vi.mock('./api/load-subscriptions', () => ({ loadSubscriptions: async () => mocks.subscriptions }));
afterEach(cleanup);

const summary = (status: SubscriptionSummary['status']): SubscriptionSummary => ({
  id: '6f1c1d3e-8a47-4c0e-9d55-0d3c2f7a9b10',
  plan_id: 'roots_3d1_7d2499',
  status,
  current_period_end: '2026-03-05T12:00:00.000Z',
  next_charge_at: '2026-03-05T12:00:00.000Z',
  next_charge_amount: 24.99,
  card_last4: '9953',
  renews: true,
  refund: null,
  access: ['subscription'],
  agreed: { name: 'Weekly Plan', first_amount: 1, renewal_amount: 24.99, first_period: null, renewal_period: null, trial: true },
});

describe("webapp main's past-due banner (issue 35)", () => {
  it('says a renewal failed and leads to that card form with "Update card"', async () => {
    mocks.subscriptions = [summary('past_due')];
    renderRoutes([{ path: '/roots/webapp', Component: () => <PastDueNotice uid="u1" slug="roots" /> }], '/roots/webapp');
    const banner = await screen.findByTestId('past-due-banner');
    expect(banner.getAttribute('role')).toBe('alert');
    expect(banner.textContent).toContain('A payment for your Weekly Plan failed.');
    expect(within(banner).getByRole('link', { name: 'Update card' }).getAttribute('href')).toBe(
      '/roots/webapp/manage-subscriptions?update=6f1c1d3e-8a47-4c0e-9d55-0d3c2f7a9b10',
    );
  });

  it('says nothing while renewals succeed', async () => {
    mocks.subscriptions = [summary('active')];
    renderRoutes([{ path: '/roots/webapp', Component: () => <PastDueNotice uid="u1" slug="roots" /> }], '/roots/webapp');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByTestId('past-due-banner')).toBeNull();
  });
});
