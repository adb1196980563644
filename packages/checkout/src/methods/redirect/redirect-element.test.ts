// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import type { EnabledPaymentMethod, Execution } from '@roots/contracts/gateway';
import type { GatewayClient } from '../../core/http/gateway-client';
import { TEST_LINKS, TEST_RETURN_INFO, testSession } from '../../testing/payment-fixtures';
import { RedirectElement } from './redirect-element';

const links = TEST_LINKS;
const session = testSession();
const returnInfo = TEST_RETURN_INFO;
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
