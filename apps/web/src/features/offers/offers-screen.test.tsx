import { buildPlanCatalog } from '@roots/contracts';
import { ACCESS_GIVES } from '@roots/contracts/access';
import { MESSAGES } from '@roots/contracts/messages';
import { cleanup, fireEvent, screen, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '../../lib/test-render';
import { resetRemoteAddr } from '../../lib/remote-addr';
import { writeSessionValue } from '../../lib/session-keys';
import { OffersScreen } from './offers-screen';

const catalog = buildPlanCatalog('roots');
const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

/** The server's answers: the catalog, and an id for every pack bought. Records what was bought. */
function stubServer() {
  const bought: string[] = [];
  const attributions: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (url === '/api/plans') return json(catalog);
      if (url === '/remote-addr') return json({ ip: '192.0.2.5', country: 'PT' });
      if (url === '/subs/create-no-user') {
        const body = JSON.parse(String(init?.body)) as { plan_id: string; attribution: unknown };
        bought.push(body.plan_id);
        attributions.push(body.attribution);
        return json({ id: `0b6a1f3e-4c2d-4e8f-9a7b-1c2d3e4f5a6${bought.length}` });
      }
      throw new Error(`unexpected call ${url}`);
    }),
  );
  return { bought, attributions };
}

async function openOffers(query: string) {
  const router = renderRoutes(
    [
      { path: '/roots/offers', Component: OffersScreen },
      { path: '/roots/sign-in', element: <h1>Sign in</h1> },
    ],
    `/roots/offers?${query}`,
  );
  await screen.findAllByRole('button', { name: /^Add for/ });
  return router;
}

const skip = () => fireEvent.click(screen.getByRole('button', { name: 'Continue to my account' }));

beforeEach(() => {
  sessionStorage.clear();
  writeSessionValue('userEmail', 'buyer@example.com');
  writeSessionValue('subscriptionId', 'sub_main');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  resetRemoteAddr();
});

describe('the offers page with sure_popup', () => {
  it('without sure_popup, continuing goes straight to sign-in with the purchase', async () => {
    stubServer();
    const router = await openOffers('plan=roots_3d1_7d2499');
    skip();
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(router.state.location.search).toBe('?plan=roots_3d1_7d2499&vSubscriptionId=sub_main');
  });

  it('does not claim the prices are shown only once: a reload shows the page again (issue 24)', async () => {
    stubServer();
    await openOffers('sure_popup=true');
    skip();
    const dialog = screen.getByRole('alertdialog', { name: 'Are you sure?' });
    expect(dialog.textContent).not.toMatch(/only (be )?(shown|offered|available) once|never (see|shown) again|last time/i);
    expect(dialog.textContent).toContain('charged once, in one click, to the card you just used');
  });

  it('asks "Are you sure?" first; staying closes the question and stays on the page', async () => {
    stubServer();
    const router = await openOffers('sure_popup=true');
    skip();
    const dialog = screen.getByRole('alertdialog', { name: 'Are you sure?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Stay and see the offers' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(router.state.location.pathname).toBe('/roots/offers');

    skip();
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Skip the offers' }));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
  });

  it('offers the _s2 packs in the question, and one click buys the _s2 plan', async () => {
    const { bought, attributions } = stubServer();
    await openOffers('sure_popup=true&profile_pro_s2=roots_profile_pro_1499_otp&match_report_s2=roots_report_1499_otp');
    // The page shows the full-price packs; the question offers the _s2 ones at their lower price.
    expect(screen.getAllByRole('button', { name: /^Add for/ }).map((button) => button.textContent)).toEqual([
      'Add for $49.99',
      'Add for $28.99',
      'Add for $28.99',
    ]);
    skip();
    const lastChance = within(screen.getByRole('alertdialog')).getByRole('list', { name: 'A last, lower price' });
    const buttons = within(lastChance).getAllByRole('button', { name: /^Add for/ });
    expect(buttons.map((button) => button.textContent)).toEqual(['Add for $14.99', 'Add for $14.99']);

    fireEvent.click(buttons[1]!);
    expect(await within(lastChance).findByText('Added to your account.')).toBeTruthy();
    expect(bought).toEqual(['roots_report_1499_otp']);
    // The pack's attribution record carries what GET /remote-addr answered.
    expect(attributions).toEqual([expect.objectContaining({ client_ip_address: '192.0.2.5', country_code: 'PT' })]);
  });

  it('has nothing more to offer when the page already shows the _s2 plan (additional_offer_dc)', async () => {
    stubServer();
    await openOffers('sure_popup=true&additional_offer_dc=true');
    skip();
    const dialog = screen.getByRole('alertdialog', { name: 'Are you sure?' });
    expect(within(dialog).queryByRole('list')).toBeNull();
  });
});

describe('a pack without the stored purchase (product-spec §4)', () => {
  it("says 'No subscription data' and sends nothing", async () => {
    const { bought } = stubServer();
    sessionStorage.clear();
    await openOffers('');
    fireEvent.click(screen.getAllByRole('button', { name: /^Add for/ })[0]!);
    expect((await screen.findByRole('alert')).textContent).toBe(MESSAGES.noSubscriptionData);
    expect(bought).toEqual([]);
  });
});

describe('the offers page with nothing left to offer (issue 35)', () => {
  it('does not talk about "these one-time packs" when none is listed', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url === '/api/plans') return json(catalog);
        // The Ultimate Pack, bought already, includes every other pack.
        if (url.endsWith('/api/entitlements'))
          return json({ plans: ['roots_ultimate_pack_4999_otp'], access: ['subscription', 'ultimate_pack', 'profile_pro', 'report'] });
        throw new Error(`unexpected call ${url}`);
      }),
    );
    renderRoutes([{ path: '/roots/offers', Component: OffersScreen }], '/roots/offers');
    await screen.findByText('Your plan is active, and you already have every pack we offer here.');
    expect(screen.queryAllByRole('button', { name: /^Add for/ })).toEqual([]);
    expect(screen.getByTestId('offers-intro').textContent).not.toContain('These one-time packs');
  });
});

describe('each pack says what it gives (issue 35, ADR 194)', () => {
  it('one line from the product data under each pack’s name', async () => {
    stubServer();
    await openOffers('');
    const cards = screen.getAllByRole('listitem');
    expect(
      cards.map((card) => [within(card).getByRole('heading').textContent, within(card).getByTestId('offer-gives').textContent]),
    ).toEqual([
      ['Ultimate Pack', ACCESS_GIVES.ultimate_pack],
      ['Profile Pro', ACCESS_GIVES.profile_pro],
      ['Heritage Report', ACCESS_GIVES.report],
    ]);
  });

  it('after Profile Pro, the Heritage Report it includes is no longer offered', async () => {
    const { bought } = stubServer();
    await openOffers('');
    const profilePro = screen.getAllByRole('listitem')[1]!;
    fireEvent.click(within(profilePro).getByRole('button', { name: 'Add for $28.99' }));
    expect(await within(profilePro).findByText('Added to your account.')).toBeTruthy();
    expect(bought).toEqual(['roots_profile_pro_2899_otp']);
    expect(screen.getAllByRole('listitem').map((card) => within(card).getByRole('heading').textContent)).toEqual([
      'Ultimate Pack',
      'Profile Pro',
    ]);
  });
});
