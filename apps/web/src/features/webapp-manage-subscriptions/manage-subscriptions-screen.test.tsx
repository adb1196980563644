import { buildPlanCatalog } from '@roots/contracts/plans';
import type { SubscriptionSummary } from '@roots/contracts/subscriptions';
import type { RootsCheckoutProps } from '@roots/checkout/react';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/preact';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../lib/i18n';
import { PublicConfigProvider } from '../../lib/public-config-context';
import { readPublicConfig } from '../../lib/public-config';
import { ManageSubscriptionsScreen } from './manage-subscriptions-screen';

const mounted: { props?: RootsCheckoutProps } = {};
vi.mock('@roots/checkout/react', () => ({
  RootsCheckout: (props: RootsCheckoutProps) => {
    mounted.props = props;
    return <div data-testid="roots-checkout" />;
  },
}));

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const ids = {
  pastDue: '6f1c1d3e-8a47-4c0e-9d55-0d3c2f7a9b10',
  canceled: '1b2c3d4e-8a47-4c0e-9d55-0d3c2f7a9b11',
  pack: '2c3d4e5f-8a47-4c0e-9d55-0d3c2f7a9b12',
};
const summary = (id: string, overrides: Partial<SubscriptionSummary>): SubscriptionSummary => ({
  id,
  plan_id: 'roots_3d1_7d2499',
  status: 'active',
  current_period_end: '2026-03-05T12:00:00.000Z',
  next_charge_at: '2026-03-05T12:00:00.000Z',
  next_charge_amount: 24.99,
  card_last4: '9953',
  renews: true,
  refund: null,
  access: ['subscription'],
  // Agreed before the catalog's price rose: the screen shows these, not the catalog's.
  agreed: {
    name: 'Weekly Plan',
    first_amount: 1,
    renewal_amount: 24.99,
    first_period: { unit: 'day', count: 3 },
    renewal_period: { unit: 'day', count: 7 },
    trial: true,
  },
  ...overrides,
});
const subject = (last4: string) => ({
  subscription_id: ids.pastDue,
  plan_id: 'roots_3d1_7d2499',
  plan_name: 'Weekly Plan',
  status: 'past_due',
  card_last4: last4,
  card_network: 'visa',
  next_payment_amount: 24.99,
  currency: 'USD',
  next_payment_at: '2026-03-02T09:00:00.000Z',
  retry_now: true,
});
const checkout = {
  sessionId: 'ses_1',
  bearerToken: 'bt',
  expiresAt: '2026-03-02T10:00:00.000Z',
  gatewayOrigin: 'http://127.0.0.1:4000',
  vaultURL: 'http://127.0.0.1:4000/vault',
  vaultProviderConfigId: 'v',
  executionId: 'exe_1',
  amount: { value: 0, currency: 'USD' },
  holderReference: 'h_1',
  paymentMethods: [{ code: 'card', integrationType: 'api' }],
  links: Object.fromEntries(
    ['execution', 'authorize', 'saveInstrument', 'binLookup', 'instruments', 'countries', 'applePaySession', 'tokenize'].map((key) => [
      key,
      `http://127.0.0.1:4000/${key}`,
    ]),
  ),
};

/** The catalog the page reads; a test raises the weekly price in it after the purchase. */
let catalogAnswer: () => Response = () => json(500, { error: 'no catalog here', code: 'INTERNAL_ERROR' });
let cardOnFile = '9953';
let pastDueStatus = 'past_due';
let posted: string[];
beforeEach(() => {
  mounted.props = undefined;
  catalogAnswer = () => json(500, { error: 'no catalog here', code: 'INTERNAL_ERROR' });
  cardOnFile = '9953';
  pastDueStatus = 'past_due';
  posted = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (init?.method === 'POST') posted.push(url);
      if (url === '/api/account/me')
        return json(200, {
          user: {
            uid: 'u1',
            email: 'ada@example.com',
            displayName: 'Ada',
            providerId: 'email',
            providerDataId: 'ada@example.com',
            isAppleAuth: false,
            isGoogleAuth: false,
          },
          has_purchase: true,
          access: ['subscription'],
          session_expires_at: new Date(Date.now() + 86_400_000).toISOString(),
        });
      if (url === '/api/plans') return catalogAnswer();
      if (url === '/api/account/subscriptions')
        return json(200, {
          subscriptions: [
            summary(ids.pastDue, { status: pastDueStatus as SubscriptionSummary['status'], card_last4: cardOnFile }),
            summary(ids.canceled, { status: 'canceled', next_charge_at: null, next_charge_amount: null }),
            summary(ids.pack, {
              plan_id: 'roots_ultimate_pack_4999_otp',
              renews: false,
              next_charge_at: null,
              next_charge_amount: null,
              agreed: {
                name: 'Ultimate Pack',
                first_amount: 49.99,
                renewal_amount: null,
                first_period: null,
                renewal_period: null,
                trial: false,
              },
            }),
          ],
        });
      if (url === `/api/account/subscriptions/${ids.pastDue}/update-card`) return json(200, { checkout, subscription: subject('9953') });
      if (url === `/api/account/subscriptions/${ids.pastDue}/update-card/complete`) {
        cardOnFile = '4242';
        return json(200, { subscription: subject('4242') });
      }
      if (url === `/api/account/subscriptions/${ids.pastDue}/cancel`) {
        pastDueStatus = 'canceled';
        return json(200, { message: 'Your subscription has been canceled' });
      }
      throw new Error(`unexpected request ${url}`);
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The screen as the app mounts it, on its route. */
function renderScreen() {
  const config = readPublicConfig();
  render(
    <PublicConfigProvider config={config}>
      <I18nextProvider i18n={createI18n(config.productName)}>
        <MemoryRouter initialEntries={['/roots/webapp/manage-subscriptions']}>
          <ManageSubscriptionsScreen />
        </MemoryRouter>
      </I18nextProvider>
    </PublicConfigProvider>,
  );
}

describe('Manage subscriptions: a new card for a subscription that renews (issue 23)', () => {
  it('offers "Update card" only where a renewal is still to come, and saves the card through the checkout’s card form', async () => {
    renderScreen();
    const items = await screen.findAllByTestId('subscription-item');
    expect(items).toHaveLength(3);
    const [pastDue, canceled, pack] = items as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(canceled).queryByRole('button', { name: 'Update card' })).toBeNull();
    expect(within(pack).queryByRole('button', { name: 'Update card' })).toBeNull();
    expect(within(pastDue).getByTestId('subscription-card').textContent).toBe('Card: •••• 9953');

    const open = within(pastDue).getByRole('button', { name: 'Update card' });
    expect(open.getAttribute('aria-expanded')).toBe('false');
    open.click();
    await within(pastDue).findByTestId('roots-checkout');
    expect(within(pastDue).getByRole('button', { name: 'Close' }).getAttribute('aria-expanded')).toBe('true');
    expect(posted).toEqual([`/api/account/subscriptions/${ids.pastDue}/update-card`]);
    expect(mounted.props).toMatchObject({ mode: 'card', session: checkout });

    act(() => mounted.props?.onSuccess?.({ execution: { id: 'exe_1' } as never }));
    await within(pastDue).findByTestId('update-card-saved');
    expect(posted).toContain(`/api/account/subscriptions/${ids.pastDue}/update-card/complete`);
    // The list reads the subscriptions again and shows the new card.
    await waitFor(() =>
      expect(within(screen.getAllByTestId('subscription-item')[0]!).getByTestId('subscription-card').textContent).toBe('Card: •••• 4242'),
    );
  });

  it('closes an open card form when the subscription is canceled: a canceled one takes no card', async () => {
    renderScreen();
    const [pastDue] = (await screen.findAllByTestId('subscription-item')) as [HTMLElement];
    within(pastDue).getByRole('button', { name: 'Update card' }).click();
    await within(pastDue).findByTestId('roots-checkout');
    within(pastDue).getByRole('button', { name: 'Cancel subscription' }).click();
    (await within(pastDue).findByRole('button', { name: 'Yes, cancel' })).click();
    await waitFor(() =>
      expect(within(screen.getAllByTestId('subscription-item')[0]!).getByTestId('subscription-status').textContent).toBe(
        'Canceled — no further charges',
      ),
    );
    expect(within(screen.getAllByTestId('subscription-item')[0]!).queryByTestId('roots-checkout')).toBeNull();
    // The page says until when access lasts (issue 24).
    expect(screen.getAllByRole('status').map((status) => status.textContent)).toContain(
      'Your subscription is canceled and will not be charged again. You keep access until March 5, 2026.',
    );
    expect(within(screen.getAllByTestId('subscription-item')[0]!).queryByRole('button', { name: 'Update card' })).toBeNull();
  });
});

describe('Manage subscriptions: what the customer agreed, in their words (issue 35)', () => {
  it('shows the agreed price and terms of each purchase, status words, and no raw status code', async () => {
    // The weekly price rose to $39.99 after the purchase: the account still says what was agreed.
    catalogAnswer = () => json(200, buildPlanCatalog('roots', { roots_3d1_7d2499: { sum: 39.99 } }));
    renderScreen();
    const [pastDue, canceled, pack] = (await screen.findAllByTestId('subscription-item')) as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(pastDue).getByTestId('subscription-plan').textContent).toBe('Weekly Plan');
    expect(within(pastDue).getByTestId('subscription-price').textContent).toBe('$24.99 every week, after a 3-day trial for $1');
    expect(within(pack).getByTestId('subscription-price').textContent).toBe('$49.99, one-time purchase');
    expect(within(pastDue).getByTestId('subscription-status').textContent).toBe('Payment failed — update your card');
    expect(within(canceled).getByTestId('subscription-status').textContent).toBe('Canceled — no further charges');
    expect(within(pack).getByTestId('subscription-status').textContent).toBe('Yours to keep');
    expect(within(pastDue).getByText(/Next charge/).textContent).toBe('Next charge: March 5, 2026 — $24.99');
    expect(screen.getByTestId('manage-subscriptions-screen').textContent).not.toMatch(/past_due|trialing|39\.99/);
  });

  it('says at the top that a renewal failed, and "Update card" there opens that card form', async () => {
    renderScreen();
    const banner = await screen.findByTestId('past-due-banner');
    expect(banner.getAttribute('role')).toBe('alert');
    expect(banner.textContent).toContain('A payment for your Weekly Plan failed.');
    within(banner).getByRole('button', { name: 'Update card' }).click();
    const [pastDue] = screen.getAllByTestId('subscription-item') as [HTMLElement];
    await within(pastDue).findByTestId('roots-checkout');
  });

  it('has a way back to the account', async () => {
    renderScreen();
    await screen.findAllByTestId('subscription-item');
    expect(screen.getByRole('link', { name: '← Back to your account' }).getAttribute('href')).toBe('/roots/webapp');
  });
});
