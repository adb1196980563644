// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import type { StoredInstrument } from '@roots/contracts/gateway';
import { redirectLabel, RedirectElement } from './redirect/redirect-element';
import { storedInstrumentLabel, StoredInstrumentElement } from './stored-instrument/stored-instrument-element';
import { loadingButton, showMessage } from '../ui/messages';

describe('drop-in labels (checkout-spec §2)', () => {
  it('generic redirect uses the provider name, default "Generic redirect"; others their code', () => {
    expect(redirectLabel({ code: 'genericRedirect', label: 'Roots Pay' })).toBe('Roots Pay');
    expect(redirectLabel({ code: 'genericRedirect' })).toBe('Generic redirect');
    expect(redirectLabel({ code: 'ideal' })).toBe('ideal');
    expect(new RedirectElement(document, { code: 'ideal', integrationType: 'hpp' }).payLabel).toBe('Pay with ideal');
  });
  it('stored instruments show their display name, or Unavailable', async () => {
    const instrument = { id: 'ins_1', displayName: 'Visa •••• 4242', status: 'enabled' } as StoredInstrument;
    expect(storedInstrumentLabel(instrument)).toBe('Visa •••• 4242');
    expect(storedInstrumentLabel({ ...instrument, status: 'disabled' })).toBe('Unavailable');
    expect(storedInstrumentLabel({ ...instrument, displayName: '' })).toBe('Unavailable');
    const element = new StoredInstrumentElement(document, instrument);
    expect(element.isValid).toBe(true);
    expect(await element.paymentItem()).toEqual({
      paymentMethodCode: 'card',
      integrationType: 'api',
      storeInstrument: false,
      paymentInstrumentId: 'ins_1',
    });
  });
});

describe('messages and overlays', () => {
  it('failure message: default text, auto-hidden after its TTL, dismissed on click', () => {
    vi.useFakeTimers();
    const host = document.createElement('div');
    const message = showMessage(host, 'error', { ttlMs: 1000 });
    expect(message.textContent).toBe('Authorization failed, please try again.');
    vi.advanceTimersByTime(1001);
    expect(host.contains(message)).toBe(false);
    const success = showMessage(host, 'success');
    expect(success.textContent).toBe('Payment successful');
    success.click();
    expect(host.contains(success)).toBe(false);
    vi.useRealTimers();
  });
  it('a button shows Loading while its handler runs', async () => {
    let release!: () => void;
    const button = loadingButton(document, 'Pay', () => new Promise<void>((resolve) => (release = resolve)));
    button.click();
    expect(button.textContent).toBe('Loading');
    release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(button.textContent).toBe('Pay');
  });
});
