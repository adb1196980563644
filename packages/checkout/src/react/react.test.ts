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
    const view = render(createElement(RootsCheckout, { session, getBearerToken: () => token, onReady }));
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 120));
    });
    expect(onReady).toHaveBeenCalledWith({ items: ['card', 'genericRedirect'] });
    expect(view.getByTestId('roots-item-genericRedirect').textContent).toContain('Roots Pay');
    const pay = view.getByTestId('roots-pay') as HTMLButtonElement;
    expect(pay.disabled).toBe(true);
    view.unmount();
    expect(document.querySelector('[data-testid=roots-dropin]')).toBeNull();
    vi.unstubAllGlobals();
  });
});
