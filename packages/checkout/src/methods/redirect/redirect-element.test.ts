// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import type { EnabledPaymentMethod, Execution, SdkInitPayload } from '@roots/contracts/gateway';
import type { GatewayClient } from '../../core/http/gateway-client';
import { RedirectElement } from './redirect-element';

const links = { execution: 'https://gw/x', authorize: 'https://gw/a' };
const session = {
  gatewayOrigin: 'https://gw',
  executionId: 'ex_1',
  amount: { value: 2499, currency: 'USD' },
  links,
} as unknown as SdkInitPayload;
const returnInfo = { success: 'https://shop/s', cancel: 'https://shop/c', error: 'https://shop/e', pending: 'https://shop/p' };
const pix = { code: 'pix', integrationType: 'hpp' } as EnabledPaymentMethod;

describe('redirect element', () => {
  it('is payable at once and builds the hosted-page item of its method', async () => {
    const element = new RedirectElement(document, pix);
    expect(element.isValid).toBe(true);
    expect(element.payLabel).toBe('Pay with pix');
    expect(await element.paymentItem()).toEqual({ paymentMethodCode: 'pix', integrationType: 'hpp', storeInstrument: false });
  });

  it('submit → response → action: a pending answer without its redirect link fails (REDIRECT_LINK_MISSING)', async () => {
    const api = {
      authorize: vi.fn(async () => ({ id: 'ex_1', status: 'authorizePending', links }) as unknown as Execution),
      getExecution: vi.fn(),
    } as unknown as GatewayClient;
    const onSubmitted = vi.fn();
    const outcome = await new RedirectElement(document, pix).submit({ api, session, window, returnInfo }, onSubmitted);
    expect(onSubmitted).toHaveBeenCalledTimes(1);
    expect(api.authorize).toHaveBeenCalledWith(
      'https://gw/a',
      expect.objectContaining({ paymentComposition: [expect.objectContaining({ paymentMethodCode: 'pix' })] }),
    );
    expect(outcome).toMatchObject({ kind: 'failure', code: 'REDIRECT_LINK_MISSING' });
  });
});
