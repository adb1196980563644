import { buildPlanCatalog } from '@roots/contracts/plans';
import { buildDisclosure } from '@roots/contracts/disclosure';
import type { RootsCheckoutProps } from '@roots/checkout/react';
import { CHECKOUT_FAILURE_WORDS } from '../../lib/checkout-words';
import { act, cleanup, render, screen, waitFor } from '@testing-library/preact';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../lib/i18n';
import { useQuizStore } from '../../lib/onboarding-store';
import { PublicConfigProvider } from '../../lib/public-config-context';
import { readPublicConfig } from '../../lib/public-config';
import { CheckoutSection } from './checkout-section';

// The drop-in itself is the SDK's (tested there and in the browser); here: what the paywall does with its events.
const mounted: { props?: RootsCheckoutProps } = {};
vi.mock('@roots/checkout/react', () => ({
  RootsCheckout: (props: RootsCheckoutProps) => {
    mounted.props = props;
    return <div data-testid="roots-checkout" />;
  },
}));

const plan = buildPlanCatalog('roots').plans[0]!;
const SUBSCRIPTION_ID = '6f1c1d3e-8a47-4c0e-9d55-0d3c2f7a9b10';
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const wallet = {
  code: 'applePay' as const,
  token: { paymentData: { version: 'EC_v1' }, transactionIdentifier: 'T1' },
  displayName: 'Ada Lovelace',
  address: {
    first_name: ' Ada',
    last_name: 'Lovelace ',
    country: 'GB',
    state: '',
    zip: '',
    city: '',
    address: '',
    address2: '',
    phone: '',
  },
};

function renderSection(url: string, onPurchased = vi.fn()) {
  const config = readPublicConfig();
  render(
    <PublicConfigProvider config={config}>
      <I18nextProvider i18n={createI18n(config.productName)}>
        <MemoryRouter initialEntries={[url]}>
          <CheckoutSection
            plan={plan}
            email="ada@example.com"
            disclosure={buildDisclosure(plan)}
            onPurchased={onPurchased}
            onPurchaseError={vi.fn()}
          />
        </MemoryRouter>
      </I18nextProvider>
    </PublicConfigProvider>,
  );
  return onPurchased;
}

let posted: Array<{ url: string; body: unknown }> = [];
beforeEach(() => {
  posted = [];
  mounted.props = undefined;
  useQuizStore.setState({ selectedPaymentMethod: 'card', firstName: '', lastName: '' });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (init?.body) posted.push({ url, body: JSON.parse(String(init.body)) });
      if (url === '/init/session') return json(200, { sessionId: 'ses_1', bearerToken: 'bt', executionId: 'exe_1' });
      if (url === '/api/account/session') return json(200, { me: null });
      return json(200, { id: SUBSCRIPTION_ID });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the paywall checkout and the quiz state (product-spec §3)', () => {
  it("keeps the wallet's card for renewals and offers, and follows the drop-in's method selection", async () => {
    renderSection('/roots/subscription');
    await screen.findByTestId('roots-checkout');
    expect(mounted.props?.dropin).toMatchObject({ paymentMethods: ['card', 'applePay'], card: { alwaysStoreInstrument: true } });
    expect(mounted.props?.dropin?.applePay).toMatchObject({ storeInstrument: true, validateMerchant: expect.any(Function) });
    // The SDK's integrator wording ('…after 3DS challenge.') reaches the customer in plain words (issue 24).
    expect(mounted.props?.dropin?.translations).toBe(CHECKOUT_FAILURE_WORDS);
    act(() => mounted.props?.onActivate?.({ id: 'applePay', code: 'applePay' }));
    expect(useQuizStore.getState().selectedPaymentMethod).toBe('apple');
    act(() => mounted.props?.onActivate?.({ id: 'card', code: 'card' }));
    expect(useQuizStore.getState().selectedPaymentMethod).toBe('card');
  });

  it('an Apple Pay success: the contact names into the quiz state, then /subs/create-no-user-applepay with vault', async () => {
    const onPurchased = renderSection('/roots/subscription?vault=1');
    await screen.findByTestId('roots-checkout');
    act(() => mounted.props?.onSuccess?.({ execution: { id: 'exe_1' } as never, wallet }));
    expect(useQuizStore.getState()).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace' });
    await waitFor(() => expect(onPurchased).toHaveBeenCalledWith({ subscriptionId: SUBSCRIPTION_ID }));
    const create = posted.find((call) => call.url.startsWith('/subs/'));
    expect(create).toMatchObject({
      url: '/subs/create-no-user-applepay',
      body: { execution_id: 'exe_1', token: wallet.token, vault: '1', display_name: 'Ada Lovelace', address: wallet.address },
    });
  });
});
