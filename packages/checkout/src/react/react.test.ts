// @vitest-environment jsdom
import { act, cleanup, render } from '@testing-library/react';
import { createElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SdkInitPayload } from '@roots/contracts/gateway';
import { RootsCheckout } from './index';

const exp = Math.floor(Date.now() / 1000) + 600;
const token = `h.${Buffer.from(JSON.stringify({ exp })).toString('base64url')}.s`;
const gw = 'https://gw.example';
const session = {
  sessionId: 'ses_1',
  bearerToken: token,
  gatewayOrigin: gw,
  vaultURL: `${gw}/vault`,
  vaultProviderConfigId: 'v',
  executionId: 'ex_1',
  amount: { value: 2499, currency: 'USD' },
  holderReference: 'h',
  paymentMethods: [
    { code: 'card', integrationType: 'api' },
    { code: 'genericRedirect', integrationType: 'hpp', label: 'Roots Pay', clientConfig: { flow: 'redirect' } },
  ],
  links: Object.fromEntries(
    ['execution', 'authorize', 'saveInstrument', 'binLookup', 'instruments', 'countries', 'applePaySession', 'tokenize'].map((key) => [
      key,
      `${gw}/${key}`,
    ]),
  ),
} as unknown as SdkInitPayload;

afterEach(() => cleanup());

describe('RootsCheckout (React)', () => {
  it('mounts the drop-in after the mount delay, fires ready, and unmounts cleanly', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ items: [] })),
    );
    const onReady = vi.fn();
    vi.useFakeTimers();
    const view = render(createElement(RootsCheckout, { session, getBearerToken: () => token, onReady }));
    // The spec's 50 ms mount delay (checkout-spec): nothing is mounted 1 ms before it, the drop-in at it.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(49);
    });
    expect(document.querySelector('[data-testid=roots-dropin]')).toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    vi.useRealTimers();
    await vi.waitFor(() => expect(onReady).toHaveBeenCalledWith({ items: ['card', 'genericRedirect'] }));
    expect(view.getByTestId('roots-item-genericRedirect').textContent).toContain('Roots Pay');
    const pay = view.getByTestId('roots-pay') as HTMLButtonElement;
    expect(pay.disabled).toBe(true);
    view.unmount();
    expect(document.querySelector('[data-testid=roots-dropin]')).toBeNull();
    vi.unstubAllGlobals();
  });
  it('disables only the stored instruments that cannot be used, never an item by its label', async () => {
    const instrument = (id: string, status: string) => ({
      id,
      displayName: `Visa •••• ${id}`,
      paymentMethod: 'card',
      status,
      holderReference: 'h',
      futureUsage: 'CardOnFile',
      data: { network: 'visa', bin: '42424242', last4: '4242', binLookup: { issuerCountry: { code: 'US' } } },
      createdAt: new Date().toISOString(),
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ items: [instrument('in_1', 'enabled'), instrument('in_2', 'disabled')] })),
    );
    const withRedirect = {
      ...session,
      paymentMethods: [
        { code: 'card', integrationType: 'api' },
        { code: 'boleto', integrationType: 'hpp', label: 'Unavailable', clientConfig: { flow: 'redirect' } },
      ],
    } as unknown as SdkInitPayload;
    const onReady = vi.fn();
    const view = render(createElement(RootsCheckout, { session: withRedirect, getBearerToken: () => token, onReady }));
    await vi.waitFor(() => expect(onReady).toHaveBeenCalled());
    const radio = (item: string) => view.container.querySelector<HTMLInputElement>(`[data-item="${item}"] input[type=radio]`)!;
    expect(radio('in_1').disabled).toBe(false);
    expect(radio('in_2').disabled).toBe(true);
    expect(view.getByTestId('roots-item-boleto').textContent).toContain('Unavailable');
    expect(radio('boleto').disabled).toBe(false);
    view.unmount();
    vi.unstubAllGlobals();
  });

  it('says "Save card", never "Pay $0.00", on the card form of a zero-amount session (a card verification)', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ items: [] })),
    );
    const verification = {
      ...session,
      amount: { value: 0, currency: 'USD' },
      paymentMethods: [{ code: 'card', integrationType: 'api' }],
    } as unknown as SdkInitPayload;
    const paying = render(createElement(RootsCheckout, { session, getBearerToken: () => token, mode: 'card' }));
    const saving = render(createElement(RootsCheckout, { session: verification, getBearerToken: () => token, mode: 'card' }));
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 120));
    });
    const payButton = (view: typeof paying) => view.container.querySelector('[data-testid=roots-pay]')?.textContent;
    expect(payButton(paying)).toBe('Pay $24.99');
    expect(payButton(saving)).toBe('Save card');
    paying.unmount();
    saving.unmount();
    vi.unstubAllGlobals();
  });
  it('marks a drop-in with a single option and preselects it; with two, neither (checkout-spec §2)', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ items: [] })),
    );
    const cardOnly = { ...session, paymentMethods: [{ code: 'card', integrationType: 'api' }] } as unknown as SdkInitPayload;
    for (const [payload, single] of [
      [cardOnly, true],
      [session, false],
    ] as const) {
      const onReady = vi.fn();
      const view = render(createElement(RootsCheckout, { session: payload, getBearerToken: () => token, onReady }));
      await vi.waitFor(() => expect(onReady).toHaveBeenCalled());
      const root = view.getByTestId('roots-dropin');
      const checked = [...view.container.querySelectorAll<HTMLInputElement>('input[type=radio]')].filter((radio) => radio.checked);
      expect([
        root.classList.contains('roots-single'),
        checked.map((radio) => radio.closest('[data-item]')?.getAttribute('data-item')),
      ]).toEqual(single ? [true, ['card']] : [false, []]);
      view.unmount();
    }
    vi.unstubAllGlobals();
  });
});
