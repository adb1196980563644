import type { CardUpdateSubject } from '@roots/contracts/card-update';
import type { RootsCheckoutProps } from '@roots/checkout/react';
import { act, cleanup, render, screen, waitFor } from '@testing-library/preact';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../lib/i18n';
import { PublicConfigProvider } from '../../lib/public-config-context';
import { readPublicConfig } from '../../lib/public-config';
import { UpdateCardScreen } from './update-card-screen';

// The card form itself is the SDK's (tested there and in the browser): here, what the page does around it.
const mounted: { props?: RootsCheckoutProps } = {};
vi.mock('@roots/checkout/react', () => ({
  RootsCheckout: (props: RootsCheckoutProps) => {
    mounted.props = props;
    return <div data-testid="roots-checkout" />;
  },
}));

const TOKEN = 'dXBkYXRlLWNhcmQ6abc.signature';
const SUBSCRIPTION_ID = '6f1c1d3e-8a47-4c0e-9d55-0d3c2f7a9b10';
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const checkout = {
  sessionId: 'ses_1',
  bearerToken: 'bt',
  expiresAt: '2026-03-02T10:00:00.000Z',
  gatewayOrigin: 'http://127.0.0.1:4000',
  vaultURL: 'http://127.0.0.1:4000/vault',
  vaultProviderConfigId: 'v',
  executionId: 'exe_1',
  amount: { value: 0, currency: 'USD' },
  holderReference: 'h_anon_1',
  paymentMethods: [{ code: 'card', integrationType: 'api' }],
  links: Object.fromEntries(
    ['execution', 'authorize', 'saveInstrument', 'binLookup', 'instruments', 'countries', 'applePaySession', 'tokenize'].map((key) => [
      key,
      `http://127.0.0.1:4000/${key}`,
    ]),
  ),
};
const subject = (overrides: Partial<CardUpdateSubject> = {}): CardUpdateSubject => ({
  subscription_id: SUBSCRIPTION_ID,
  plan_id: 'roots_3d1_7d2499',
  plan_name: 'Weekly Plan',
  status: 'trialing',
  card_last4: '9953',
  card_network: 'visa',
  next_payment_amount: 24.99,
  currency: 'USD',
  next_payment_at: '2026-03-05T12:00:00.000Z',
  retry_now: false,
  ...overrides,
});

let answers: Record<string, () => Response>;
let posted: Array<{ url: string; body: unknown }>;
beforeEach(() => {
  mounted.props = undefined;
  posted = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      posted.push({ url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      const answer = answers[url];
      if (!answer) throw new Error(`unexpected request ${url}`);
      return answer();
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPage() {
  const config = readPublicConfig();
  render(
    <PublicConfigProvider config={config}>
      <I18nextProvider i18n={createI18n(config.productName)}>
        <MemoryRouter initialEntries={[`/roots/update-card/${TOKEN}`]}>
          <Routes>
            <Route path="/roots/update-card/:token" element={<UpdateCardScreen />} />
          </Routes>
        </MemoryRouter>
      </I18nextProvider>
    </PublicConfigProvider>,
  );
}

const OPEN = `/api/update-card/${encodeURIComponent(TOKEN)}`;

describe('the update-card page of the payment-failed email (issue 23)', () => {
  it('says which subscription and that a past-due payment is tried again now, mounts the card form, and saves the verified card', async () => {
    answers = {
      [OPEN]: () => json(200, { checkout, subscription: subject({ status: 'past_due', retry_now: true }) }),
      [`${OPEN}/complete`]: () =>
        json(200, {
          subscription: subject({ status: 'past_due', retry_now: true, card_last4: '4242', next_payment_at: '2026-03-02T09:00:00.000Z' }),
        }),
    };
    renderPage();
    await screen.findByTestId('roots-checkout');
    expect(screen.getByRole('heading', { level: 2, name: 'New card for Weekly Plan' })).toBeTruthy();
    expect(screen.getByText('Card on file: ending in 9953.')).toBeTruthy();
    expect(screen.getByTestId('update-card-next').textContent).toBe(
      'Your last payment did not go through. We will try the payment of $24.99 again now, on the card you save here.',
    );
    expect(screen.getByRole('group', { name: 'New card details' })).toBeTruthy();
    // The checkout's own card form on the verification session; the card is stored for renewals.
    expect(mounted.props).toMatchObject({ mode: 'card', session: checkout, dropin: { card: { alwaysStoreInstrument: true } } });

    act(() => mounted.props?.onSuccess?.({ execution: { id: 'exe_1' } as never }));
    const saved = await screen.findByTestId('update-card-saved');
    expect(posted.find((call) => call.url === `${OPEN}/complete`)?.body).toEqual({ execution_id: 'exe_1' });
    expect(saved.textContent).toContain('Your card ending in 4242 is now the card for Weekly Plan.');
    expect(saved.textContent).toContain('We will try the payment of $24.99 again now. The receipt goes to your email.');
    // Focus moves to the outcome, so a screen reader hears it.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Card saved' })));
    expect(screen.queryByTestId('roots-checkout')).toBeNull();
  });

  it('says when the next payment is for a subscription in good standing', async () => {
    answers = { [OPEN]: () => json(200, { checkout, subscription: subject() }) };
    renderPage();
    await screen.findByTestId('roots-checkout');
    const expected = new Date('2026-03-05T12:00:00.000Z').toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric' });
    expect(screen.getByTestId('update-card-next').textContent).toBe(`Your next payment of $24.99 on ${expected} uses this card.`);
    expect(screen.getByText('Saving the card charges nothing by itself: your bank only confirms it.')).toBeTruthy();
  });

  it('shows the server’s refusal of a stale link, and of a card it could not verify, with a new checkout to try again', async () => {
    let opens = 0;
    answers = {
      [OPEN]: () => {
        opens += 1;
        return opens === 1
          ? json(404, { error: 'This update-card link is not valid or has expired.', code: 'NOT_FOUND' })
          : json(200, { checkout, subscription: subject() });
      },
      [`${OPEN}/complete`]: () => json(422, { error: 'The new card could not be confirmed for this subscription.', code: 'UNPROCESSABLE' }),
    };
    renderPage();
    expect((await screen.findByRole('alert')).textContent).toBe('This update-card link is not valid or has expired.');
    screen.getByRole('button', { name: 'Try again' }).click();
    await screen.findByTestId('roots-checkout');
    act(() => mounted.props?.onSuccess?.({ execution: { id: 'exe_1' } as never }));
    expect((await screen.findByRole('alert')).textContent).toBe('The new card could not be confirmed for this subscription.');
    expect(screen.queryByTestId('update-card-saved')).toBeNull();
    screen.getByRole('button', { name: 'Try again' }).click();
    await waitFor(() => expect(opens).toBe(3));
  });
});
