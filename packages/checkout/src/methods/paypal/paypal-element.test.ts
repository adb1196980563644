// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Execution } from '@roots/contracts/gateway';
import type { CheckoutContext } from '../../client/checkout-context';
import type { DebounceTimers } from '../../core/timing/debounce';
import {
  PAYPAL_BUTTON_STYLE,
  PAYPAL_RERENDER_DEBOUNCE_MS,
  PayPalElement,
  payPalIntent,
  payPalScriptURL,
  type PayPalConfig,
  type PayPalElementOptions,
  type PayPalHooks,
} from './paypal-element';

const SCRIPT = 'https://gw.example/sandbox/paypal/sdk/js';
const confirmHref = 'https://gw.example/v1/executions/exe_1/confirm';

type ButtonsOptions = {
  style: unknown;
  createOrder?: () => Promise<string>;
  createBillingAgreement?: () => Promise<string>;
  onApprove: (data: unknown) => Promise<void>;
  onCancel: () => Promise<void>;
  onError: (error: unknown) => void;
  onShippingAddressChange?: (data: unknown, actions: { reject: () => Promise<void> }) => Promise<void>;
};
const rendered: Array<{ options: ButtonsOptions; target: HTMLElement; close: ReturnType<typeof vi.fn> }> = [];
/** The PayPal namespace a loaded script defines. */
const fakePayPal = {
  Buttons: (options: ButtonsOptions) => {
    const entry = { options, target: document.body, close: vi.fn(async () => {}) };
    return {
      render: async (target: HTMLElement) => {
        entry.target = target;
        rendered.push(entry);
      },
      close: entry.close,
    };
  },
};

/** Fires `load` on the PayPal script the element inserted last (jsdom loads no scripts), with the namespace defined. */
async function loadPayPalScript(): Promise<URL> {
  const pending = () => document.querySelector<HTMLScriptElement>('script[data-roots-sdk="paypal"]:not([data-test-loaded])');
  await vi.waitFor(() => expect(pending()).not.toBeNull());
  const script = pending()!;
  script.dataset.testLoaded = 'true';
  (window as unknown as { paypal: unknown }).paypal = fakePayPal;
  script.dispatchEvent(new Event('load'));
  return new URL(script.src);
}

/** Timers that run only when flushed, to see the debounce at work. */
function manualTimers(): DebounceTimers & { flush: () => void; waits: number[] } {
  const queue = new Map<number, () => void>();
  let next = 0;
  const waits: number[] = [];
  return {
    waits,
    setTimeout: (run, ms) => {
      waits.push(ms);
      queue.set((next += 1), run);
      return next;
    },
    clearTimeout: (id) => void queue.delete(id as number),
    flush: () => {
      const runs = [...queue.values()];
      queue.clear();
      runs.forEach((run) => run());
    },
  };
}

const execution = (overrides: Partial<Execution>): Execution =>
  ({ id: 'exe_1', status: 'confirmRequested', links: { execution: 'x', authorize: 'y' }, ...overrides }) as Execution;
const confirmRequested = (parameters: { orderId?: string; tokenId?: string }) =>
  execution({ links: { execution: 'x', authorize: 'y', confirm: { href: confirmHref, action: { type: 'payPalApproval', parameters } } } });

function setUp(config: Partial<PayPalConfig> = {}, timers: DebounceTimers = manualTimers(), options: PayPalElementOptions = {}) {
  const payPal: PayPalConfig = { clientId: 'sb-roots-sandbox', captureMode: 'Instant', integrationMode: 'standard', ...config };
  const api = { confirm: vi.fn(async (_url: string, _body: unknown) => execution({ status: 'authorizeRequested' })) };
  const context = {
    window,
    document,
    api,
    logger: { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() },
    config: {
      walletScripts: { googlePay: 'x', payPal: SCRIPT },
      session: { amount: { value: 2499, currency: 'USD' }, paymentMethods: [{ code: 'payPal', integrationType: 'api', payPal }] },
    },
  } as unknown as CheckoutContext;
  const calls: string[] = [];
  const hooks = {
    authorize: vi.fn(async () => confirmRequested({ orderId: 'ord_1', tokenId: 'tok_1' })),
    loading: vi.fn(() => void calls.push('loading')),
    complete: vi.fn(async () => void calls.push('complete')),
    finish: vi.fn(() => void calls.push('finish')),
    sessionExpired: vi.fn(() => void calls.push('sessionExpired')),
  } satisfies PayPalHooks;
  const element = new PayPalElement(context, hooks, { ...options, timers });
  return { element, hooks, api, calls, context };
}

afterEach(() => {
  PayPalElement.mounted?.unmount();
  document.head.querySelectorAll('script').forEach((script) => script.remove());
  document.body.replaceChildren();
  delete (window as unknown as { paypal?: unknown }).paypal;
  rendered.length = 0;
});

describe('PayPal script parameters (checkout-spec §4, §7)', () => {
  it('orders capture (captureMode Instant) or authorize; storing is a billing agreement with vault', () => {
    expect(payPalIntent({ captureMode: 'Instant' }, false)).toBe('capture');
    expect(payPalIntent({ captureMode: 'Manual' }, false)).toBe('authorize');
    expect(payPalIntent({ captureMode: 'Instant' }, true)).toBe('tokenize');
    const url = new URL(payPalScriptURL(SCRIPT, { clientId: 'sb-1', captureMode: 'Instant' }, 'USD', true));
    expect(Object.fromEntries(url.searchParams)).toEqual({
      'client-id': 'sb-1',
      intent: 'tokenize',
      currency: 'USD',
      vault: 'true',
      components: 'buttons,funding-eligibility',
    });
  });
});

describe('PayPal element', () => {
  it('renders a one-time order button (gold, 40, paypal, rect, no tagline) after loading the script', async () => {
    const { element } = setUp();
    element.mount(document.body);
    const url = await loadPayPalScript();
    expect(url.searchParams.get('intent')).toBe('capture');
    expect(url.searchParams.get('vault')).toBe('false');
    await vi.waitFor(() => expect(rendered).toHaveLength(1));
    const [{ options, target }] = rendered as [(typeof rendered)[number]];
    expect(options.style).toEqual(PAYPAL_BUTTON_STYLE);
    expect(options.createOrder).toBeTypeOf('function');
    expect(options.createBillingAgreement).toBeUndefined();
    expect(target.dataset.testid).toBe('roots-paypal-buttons');
    expect(document.getElementById('roots-paypal-store-instrument')).not.toBeNull();
  });

  it('the save checkbox closes and re-renders as a billing agreement after the 300 ms debounce', async () => {
    const timers = manualTimers();
    const { element } = setUp({}, timers);
    element.mount(document.body);
    await loadPayPalScript();
    await vi.waitFor(() => expect(rendered).toHaveLength(1));
    const checkbox = document.getElementById('roots-paypal-store-instrument') as HTMLInputElement;
    checkbox.click();
    checkbox.click();
    checkbox.click();
    expect(timers.waits).toEqual([PAYPAL_RERENDER_DEBOUNCE_MS, PAYPAL_RERENDER_DEBOUNCE_MS, PAYPAL_RERENDER_DEBOUNCE_MS]);
    expect(rendered[0]!.close).not.toHaveBeenCalled();
    timers.flush();
    await vi.waitFor(() => expect(rendered[0]!.close).toHaveBeenCalledOnce());
    const url = await loadPayPalScript();
    expect(url.searchParams.get('intent')).toBe('tokenize');
    expect(url.searchParams.get('vault')).toBe('true');
    expect(document.querySelectorAll('script[data-roots-sdk="paypal"]')).toHaveLength(1);
    expect(document.querySelector('script[data-roots-sdk="paypal"]')?.getAttribute('data-loader-version')).toBe('5.1.4');
    await vi.waitFor(() => expect(rendered).toHaveLength(2));
    expect(rendered[1]!.options.createBillingAgreement).toBeTypeOf('function');
    expect(rendered[1]!.options.createOrder).toBeUndefined();
  });

  it('express mode: no checkbox, never storing', async () => {
    const { element } = setUp({ integrationMode: 'express' });
    element.mount(document.body);
    expect(document.getElementById('roots-paypal-store-instrument')).toBeNull();
    expect((await loadPayPalScript()).searchParams.get('vault')).toBe('false');
    expect(element.storeInstrument).toBe(false);
  });

  it('createOrder authorizes the PayPal item and answers the order id; approval confirms with it and the correlation id', async () => {
    const { element, hooks, api, calls } = setUp();
    element.mount(document.body);
    await loadPayPalScript();
    await vi.waitFor(() => expect(rendered).toHaveLength(1));
    const { options } = rendered[0]!;
    await expect(options.createOrder!()).resolves.toBe('ord_1');
    expect(hooks.authorize).toHaveBeenCalledWith({
      paymentMethodCode: 'payPal',
      integrationType: 'api',
      storeInstrument: false,
      paymentInstrumentData: { providerData: { riskSessionCorrelationId: element.riskSessionCorrelationId } },
    });
    await options.onApprove({ orderID: 'ord_1', payerID: 'payer_1' });
    expect(api.confirm).toHaveBeenCalledWith(confirmHref, {
      data: { orderId: 'ord_1', riskSessionCorrelationId: element.riskSessionCorrelationId },
    });
    expect(element.riskSessionCorrelationId).toMatch(/^[0-9a-f]{32}$/);
    expect(calls).toEqual(['loading', 'complete']);
  });

  it('a billing agreement answers the agreement token and confirms with its tokenId', async () => {
    const { element, api } = setUp();
    element.mount(document.body);
    await loadPayPalScript();
    (document.getElementById('roots-paypal-store-instrument') as HTMLInputElement).checked = true;
    const rendering = element.renderButtons();
    await loadPayPalScript();
    await rendering;
    await vi.waitFor(() => expect(rendered.at(-1)!.options.createBillingAgreement).toBeTypeOf('function'));
    const { options } = rendered.at(-1)!;
    await expect(options.createBillingAgreement!()).resolves.toBe('tok_1');
    await options.onApprove({ billingToken: 'tok_1' });
    expect(api.confirm).toHaveBeenCalledWith(confirmHref, {
      data: { orderId: 'ord_1', tokenId: 'tok_1', riskSessionCorrelationId: element.riskSessionCorrelationId },
    });
  });

  it.each([
    [execution({ status: 'authorizeFailed' }), 'No confirm link'],
    [confirmRequested({}), 'No order id returned'],
  ])('order creation fails with PAYPAL_ORDER_CREATION_FAILED: %#', async (answer, message) => {
    const { element, hooks } = setUp();
    hooks.authorize.mockResolvedValueOnce(answer);
    element.mount(document.body);
    await loadPayPalScript();
    await vi.waitFor(() => expect(rendered).toHaveLength(1));
    await expect(rendered[0]!.options.createOrder!()).rejects.toMatchObject({ code: 'PAYPAL_ORDER_CREATION_FAILED', message });
  });

  it('cancel: the order is cancelled at the gateway, session expiry first, then the failure event with the reason', async () => {
    const { element, hooks, api, calls } = setUp();
    const reason = { reason: { result: 'The payment was canceled.', code: 'payment_canceled', type: 'AUTHORIZATION_ERROR' } };
    api.confirm.mockResolvedValueOnce(
      execution({ status: 'authorizeFailed', finalState: { code: 'authorizeFailed', errors: [reason] } as never }),
    );
    element.mount(document.body);
    await loadPayPalScript();
    await vi.waitFor(() => expect(rendered).toHaveLength(1));
    await rendered[0]!.options.createOrder!();
    await rendered[0]!.options.onCancel();
    expect(api.confirm).toHaveBeenCalledWith(confirmHref, { data: { orderId: 'ord_1', cancelled: true } });
    expect(calls).toEqual(['sessionExpired', 'finish']);
    expect(hooks.finish).toHaveBeenCalledWith(
      expect.objectContaining({ kind: 'failure', code: 'AUTHORIZATION_ERROR', message: 'The payment was canceled.' }),
    );
  });

  it('an error thrown by order creation reaches onError: session expiry, then its own code', async () => {
    const { element, hooks, calls } = setUp();
    element.mount(document.body);
    await loadPayPalScript();
    await vi.waitFor(() => expect(rendered).toHaveLength(1));
    hooks.authorize.mockResolvedValueOnce(confirmRequested({}));
    const error = await rendered[0]!.options.createOrder!().catch((caught: unknown) => caught);
    rendered[0]!.options.onError(error);
    await vi.waitFor(() => expect(calls).toEqual(['sessionExpired', 'finish']));
    expect(hooks.finish).toHaveBeenCalledWith(
      expect.objectContaining({ code: 'PAYPAL_ORDER_CREATION_FAILED', message: 'No order id returned' }),
    );
  });

  it('a script that fails to load: PAYPAL_SDK_LOAD_FAILED', async () => {
    const { element, hooks } = setUp();
    element.mount(document.body);
    await vi.waitFor(() => expect(document.querySelector('script[data-roots-sdk="paypal"]')).not.toBeNull());
    document.querySelector('script[data-roots-sdk="paypal"]')!.dispatchEvent(new Event('error'));
    await vi.waitFor(() => expect(hooks.finish).toHaveBeenCalledWith(expect.objectContaining({ code: 'PAYPAL_SDK_LOAD_FAILED' })));
  });

  it('only one instance is mounted at a time', async () => {
    const first = setUp();
    const second = setUp();
    first.element.mount(document.body);
    second.element.mount(document.body);
    expect(first.element.mounted).toBe(false);
    expect(second.element.mounted).toBe(true);
    expect(PayPalElement.mounted).toBe(second.element);
  });
});

describe('PayPal delivery-address callback (checkout-spec §8 "callback failed")', () => {
  const address = { city: 'Austin', state: 'TX', countryCode: 'US', postalCode: '73301' };
  async function shippingHandler(onDeliveryAddressChanged?: PayPalElementOptions['onDeliveryAddressChanged']) {
    const setup = setUp({}, manualTimers(), onDeliveryAddressChanged ? { onDeliveryAddressChanged } : {});
    setup.element.mount(document.body);
    await loadPayPalScript();
    await vi.waitFor(() => expect(rendered).toHaveLength(1));
    return { ...setup, handler: rendered[0]!.options.onShippingAddressChange };
  }

  it('accepts the change when the callback resolves true', async () => {
    const callback = vi.fn(async () => true);
    const { handler, context } = await shippingHandler(callback);
    const reject = vi.fn(async () => {});
    await handler!({ shippingAddress: address }, { reject });
    expect(callback).toHaveBeenCalledWith(address);
    expect(reject).not.toHaveBeenCalled();
    expect(context.logger.error).not.toHaveBeenCalled();
  });

  it.each([
    ['resolves false', async () => false],
    [
      'throws',
      async () => {
        throw new Error('address service down');
      },
    ],
  ])('rejects the shipping change and logs CALLBACK_FAILED when the callback %s', async (_case, callback) => {
    const { handler, context } = await shippingHandler(callback);
    const reject = vi.fn(async () => {});
    await handler!({ shippingAddress: address }, { reject });
    expect(reject).toHaveBeenCalledTimes(1);
    expect(context.logger.error).toHaveBeenCalledWith(expect.any(String), expect.objectContaining({ code: 'CALLBACK_FAILED' }));
  });

  it('leaves PayPal without a shipping handler when the integrator gives no callback', async () => {
    const { handler } = await shippingHandler();
    expect(handler).toBeUndefined();
  });
});
