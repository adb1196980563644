// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import type { SdkInitPayload, StoredInstrument } from '@roots/contracts/gateway';
import type { GatewayClient } from '../../core/http/gateway-client';
import { TEST_RETURN_INFO, testSession } from '../../testing/payment-fixtures';
import { isInstrumentUsable, storedInstrumentLabel, StoredInstrumentElement } from './stored-instrument-element';

const instrument = (status: StoredInstrument['status'], displayName = 'Visa •••• 4242') =>
  ({ id: 'ins_1', status, displayName, paymentMethod: 'card', data: { network: 'visa' } }) as unknown as StoredInstrument;
const session = testSession({ amount: { value: 1, currency: 'USD' }, links: { authorize: 'https://gw/a' } } as Partial<SdkInitPayload>);
const returnInfo = TEST_RETURN_INFO;

describe('stored instrument element', () => {
  it('an enabled, named instrument pays by its id; others are Unavailable', async () => {
    expect(isInstrumentUsable(instrument('enabled'))).toBe(true);
    expect(storedInstrumentLabel(instrument('disabled'))).toBe('Unavailable');
    expect(storedInstrumentLabel(instrument('enabled', ''))).toBe('Unavailable');
    expect(await new StoredInstrumentElement(document, instrument('enabled')).paymentItem()).toEqual({
      paymentMethodCode: 'card',
      integrationType: 'api',
      storeInstrument: false,
      paymentInstrumentId: 'ins_1',
    });
  });

  it('a disabled instrument is blocked before any call (VALIDATION_FAILED)', async () => {
    const api = { authorize: vi.fn() } as unknown as GatewayClient;
    const outcome = await new StoredInstrumentElement(document, instrument('disabled')).submit({ api, session, window, returnInfo });
    expect(outcome).toMatchObject({ kind: 'failure', code: 'VALIDATION_FAILED' });
    expect(api.authorize).not.toHaveBeenCalled();
  });
});
