import { MESSAGES } from '@roots/contracts/messages';
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../lib/i18n';
import { UnsubscriptionScreen } from './cancel-screen';

const TOKEN = 'Y2FuY2VsOjE.abcdefabcdefabcdefabcdefabcdefab';

function renderAt(url: string) {
  return render(
    <I18nextProvider i18n={createI18n('Roots')}>
      <MemoryRouter initialEntries={[url]}>
        <UnsubscriptionScreen />
      </MemoryRouter>
    </I18nextProvider>,
  );
}

function answer(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** What `GET …/details` answers for the link: a weekly plan, with or without the guarantee's refund. */
function details(refund: { amount: number; until: string } | null) {
  return {
    plan_name: 'Weekly Plan',
    subscription: {
      id: '0b6a1f3e-4c2d-4e8f-9a7b-1c2d3e4f5a6b',
      plan_id: 'roots_3d1_7d2499',
      status: 'trialing',
      current_period_end: '2026-11-29T12:00:00.000Z',
      next_charge_at: '2026-11-29T12:00:00.000Z',
      next_charge_amount: 24.99,
      card_last4: '4242',
      access: ['subscription'],
      renews: true,
      refund,
      agreed: {
        name: 'Weekly Plan',
        first_amount: 1,
        renewal_amount: 24.99,
        first_period: { unit: 'day', count: 3 },
        renewal_period: { unit: 'day', count: 7 },
        trial: true,
      },
    },
  };
}

/** The product as the page calls it: the link's details on GET, the cancel's outcome on POST. */
function product(refund: { amount: number; until: string } | null, outcome: unknown = { message: MESSAGES.subscriptionCanceled }) {
  return vi.fn(async (_url: string, init?: RequestInit) => (init?.method === 'POST' ? answer(200, outcome) : answer(200, details(refund))));
}

const calls = (fetchMock: ReturnType<typeof product>) => fetchMock.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${url}`);

describe('the cancel page opened from the emailed link (ADR 085)', () => {
  it('asks first: opening the link only reads what it names; the button cancels by POSTing the link', async () => {
    const fetchMock = product(null);
    vi.stubGlobal('fetch', fetchMock);
    renderAt(`/roots/unsubscription?link=${encodeURIComponent(TOKEN)}`);
    expect(screen.getByRole('heading', { name: 'Cancel your subscription?' })).toBeTruthy();
    expect(await screen.findByText('Weekly Plan: access until November 29, 2026.')).toBeTruthy();
    expect(calls(fetchMock)).toEqual([`GET /api/cancel-subscription/${encodeURIComponent(TOKEN)}/details`]);
    // Outside the guarantee's window no refund is offered.
    expect(screen.queryByRole('button', { name: /refund/ })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Cancel my subscription' }));
    expect(await screen.findByText(MESSAGES.subscriptionCanceled)).toBeTruthy();
    expect(calls(fetchMock)[1]).toBe(`POST /api/cancel-subscription/${encodeURIComponent(TOKEN)}`);
  });

  it('offers the money-back refund with the cancel while the guarantee lasts, and says what was refunded', async () => {
    const fetchMock = product({ amount: 1, until: '2026-12-26T12:00:00.000Z' }, { message: MESSAGES.subscriptionCanceled, refunded: 1 });
    vi.stubGlobal('fetch', fetchMock);
    renderAt(`/roots/unsubscription?link=${encodeURIComponent(TOKEN)}`);
    expect(await screen.findByText('Money-back guarantee: you can get your $1 back until December 26, 2026.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel and refund $1' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      `${MESSAGES.subscriptionCanceled} We refunded $1 to your card. It usually shows on your statement within 5–10 business days.`,
    );
    expect(calls(fetchMock)[1]).toBe(`POST /api/cancel-subscription/${encodeURIComponent(TOKEN)}?refund=true`);
  });

  it('keeps the subscription when the customer says so, without a cancel', async () => {
    const fetchMock = product(null);
    vi.stubGlobal('fetch', fetchMock);
    renderAt(`/roots/unsubscription?link=${encodeURIComponent(TOKEN)}`);
    fireEvent.click(screen.getByRole('button', { name: 'Keep my subscription' }));
    expect(screen.getByRole('status').textContent).toBe('Nothing changed: your subscription continues.');
    expect(calls(fetchMock).filter((call) => call.startsWith('POST'))).toEqual([]);
  });

  it('falls back to asking by email when the link is stale', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer(404, { error: MESSAGES.noSubscriptions, code: 'NOT_FOUND' })),
    );
    renderAt(`/roots/unsubscription?link=${encodeURIComponent(TOKEN)}`);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel my subscription' }));
    expect(await screen.findByRole('button', { name: 'Send code' })).toBeTruthy();
  });
});
