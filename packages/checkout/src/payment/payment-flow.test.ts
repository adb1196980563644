// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import type { Execution } from '@roots/contracts/gateway';
import { CheckoutError } from '../core/errors/checkout-error';
import type { GatewayClient } from '../core/http/gateway-client';
import { TEST_LINKS, TEST_RETURN_INFO, testSession } from '../testing/payment-fixtures';
import { REDIRECT_FALLBACK_MS, REDIRECT_FLAG_CLEAR_MS, redirectPage, runPayment, WAITING_FOR_REDIRECT_KEY } from './payment-flow';

const links = TEST_LINKS;
const session = testSession();
const item = { paymentMethodCode: 'card', integrationType: 'api' as const, storeInstrument: false, paymentInstrumentId: 'ins_1' };
const returnInfo = TEST_RETURN_INFO;
const exec = (overrides: Partial<Execution>) => ({ id: 'ex_1', links, ...overrides }) as Execution;

function fakeApi(authorize: Execution | Error, polls: Execution[] = []) {
  let index = 0;
  return {
    authorize: vi.fn(async () => {
      if (authorize instanceof Error) throw authorize;
      return authorize;
    }),
    getExecution: vi.fn(async () => polls[Math.min(index++, polls.length - 1)]!),
  } as unknown as GatewayClient;
}
const timers = () => {
  const sleeps: number[] = [];
  return { sleeps, sleep: async (ms: number) => void sleeps.push(ms) };
};

/** A payment whose authorization asks for a 3-D Secure challenge in a popup, in `fakeWindow`. */
function payWithPopupChallenge(fakeWindow: typeof window) {
  const threeDS = { href: 'https://gw/3ds/ex_1', mode: 'popup' as const, messageOrigin: 'https://gw' };
  const api = fakeApi(exec({ status: 'authorizePending', links: { ...links, threeDS } }));
  return runPayment({ api, session, window: fakeWindow, returnInfo, timers: timers() }, item);
}

describe('runPayment', () => {
  it('authorize → poll → success', async () => {
    const api = fakeApi(exec({ status: 'authorizeRequested' }), [exec({ status: 'authorizeSuccessful' })]);
    const outcome = await runPayment({ api, session, window, returnInfo, timers: timers() }, item);
    expect(outcome.kind).toBe('success');
    expect(api.authorize).toHaveBeenCalledWith(
      'https://gw/a',
      expect.objectContaining({ amount: session.amount, paymentComposition: [item], returnInfo }),
    );
  });

  it('failure carries AUTHORIZATION_ERROR and the first reason', async () => {
    const finalState = {
      code: 'authorizeFailed' as const,
      errors: [
        {
          reason: {
            result: 'Your card has insufficient funds.',
            code: 'insufficient_funds' as const,
            type: 'AUTHORIZATION_ERROR' as const,
          },
        },
      ],
    };
    const outcome = await runPayment(
      { api: fakeApi(exec({ status: 'authorizeFailed', finalState })), session, window, returnInfo, timers: timers() },
      item,
    );
    expect(outcome).toMatchObject({ kind: 'failure', code: 'AUTHORIZATION_ERROR', message: 'Your card has insufficient funds.' });
  });

  it('401/403 become AUTHENTICATION_ERROR with the token message; 429 stays TOO_MANY_REQUESTS', async () => {
    const unauthorized = await runPayment(
      { api: fakeApi(new CheckoutError('UNAUTHORIZED')), session, window, returnInfo, timers: timers() },
      item,
    );
    expect(unauthorized).toMatchObject({ kind: 'failure', code: 'AUTHENTICATION_ERROR', message: 'API token is not valid or expired.' });
    const limited = await runPayment(
      { api: fakeApi(new CheckoutError('TOO_MANY_REQUESTS')), session, window, returnInfo, timers: timers() },
      item,
    );
    expect(limited).toMatchObject({ kind: 'failure', code: 'TOO_MANY_REQUESTS' });
    const unknown = await runPayment({ api: fakeApi(new Error('boom')), session, window, returnInfo, timers: timers() }, item);
    expect(unknown).toMatchObject({ kind: 'failure', code: 'UNKNOWN_ERROR', message: 'Something went wrong' });
  });

  it('generic page redirect: sets the wait flag, navigates, and fails after 30 000 ms if still here', async () => {
    const assign = vi.fn();
    const fakeWindow = {
      localStorage: window.localStorage,
      setTimeout: window.setTimeout.bind(window),
      location: { assign },
    } as unknown as typeof window;
    const clock = timers();
    const pending = exec({ status: 'authorizePending', links: { ...links, redirect: 'https://gw/hpp/ex_1' } });
    const outcome = await runPayment(
      { api: fakeApi(pending), session, window: fakeWindow, returnInfo, timers: clock },
      { ...item, paymentMethodCode: 'genericRedirect', integrationType: 'hpp' },
    );
    expect(assign).toHaveBeenCalledWith('https://gw/hpp/ex_1');
    expect(window.localStorage.getItem(WAITING_FOR_REDIRECT_KEY)).toBe('true');
    expect(clock.sleeps).toEqual([REDIRECT_FALLBACK_MS]);
    expect(REDIRECT_FALLBACK_MS).toBe(30_000);
    expect(outcome).toMatchObject({ kind: 'failure', code: 'AUTHORIZATION_ERROR' });
  });

  it('a hosted method opens in a popup when the gateway says so (clientConfig.popup), whatever its code', async () => {
    const pending = exec({ status: 'authorizePending', links: { ...links, redirect: 'https://gw/hpp/ex_1' } });
    const opened: string[] = [];
    const assign = vi.fn();
    const fakeWindow = {
      localStorage: window.localStorage,
      setTimeout: window.setTimeout.bind(window),
      location: { assign },
      // A blocked popup: the flow then navigates, which is where this test stops.
      open: (url: string) => (opened.push(url), null),
      screen: { width: 1280, height: 800 },
      screenX: 0,
      screenY: 0,
      outerWidth: 1280,
      outerHeight: 800,
    } as unknown as typeof window;
    const hosted = (code: string, popup: boolean) =>
      testSession({ paymentMethods: [{ code, integrationType: 'hpp', clientConfig: { flow: 'redirect', ...(popup ? { popup } : {}) } }] });
    const pay = (code: string, popup: boolean) =>
      runPayment(
        { api: fakeApi(pending), session: hosted(code, popup), window: fakeWindow, returnInfo, timers: timers() },
        { ...item, paymentMethodCode: code, integrationType: 'hpp' },
      );
    await pay('pix', false);
    expect(opened).toEqual([]);
    await pay('someBank', true);
    expect(opened).toEqual(['https://gw/hpp/ex_1']);
  });

  it('3-D Secure with a blocked popup falls back to a page redirect', async () => {
    const assign = vi.fn();
    const fakeWindow = {
      localStorage: window.localStorage,
      setTimeout: window.setTimeout.bind(window),
      location: { assign },
      open: () => null,
      screen: { width: 1280, height: 800 },
    } as unknown as typeof window;
    const outcome = await payWithPopupChallenge(fakeWindow);
    expect(assign).toHaveBeenCalledWith('https://gw/3ds/ex_1');
    expect(outcome.kind).toBe('pending');
  });

  it('opens the 3-D Secure popup sized by screen width', async () => {
    const open = vi.fn(() => null);
    const fakeWindow = {
      localStorage: window.localStorage,
      setTimeout: window.setTimeout.bind(window),
      location: { assign: vi.fn() },
      open,
      screen: { width: 420, height: 800 },
    } as unknown as typeof window;
    await payWithPopupChallenge(fakeWindow);
    expect(open).toHaveBeenCalledWith('https://gw/3ds/ex_1', 'roots-3ds', expect.stringContaining('width=390,height=400'));
  });
});

describe('the redirect-wait flag (checkout-spec §4, §9: set on a page redirect, cleared after 3000 ms)', () => {
  it('is set as the page leaves and stays until 3000 ms have passed', () => {
    vi.useFakeTimers();
    try {
      const assign = vi.fn();
      const fakeWindow = { localStorage: window.localStorage, setTimeout, location: { assign } } as unknown as typeof window;
      redirectPage({ window: fakeWindow }, 'https://gw/hpp/ex_2');
      expect(assign).toHaveBeenCalledWith('https://gw/hpp/ex_2');
      expect(window.localStorage.getItem(WAITING_FOR_REDIRECT_KEY)).toBe('true');
      vi.advanceTimersByTime(2_999);
      expect(window.localStorage.getItem(WAITING_FOR_REDIRECT_KEY)).toBe('true');
      vi.advanceTimersByTime(1);
      expect(window.localStorage.getItem(WAITING_FOR_REDIRECT_KEY)).toBeNull();
      expect([REDIRECT_FLAG_CLEAR_MS, WAITING_FOR_REDIRECT_KEY]).toEqual([3_000, 'waitingForRedirectResponse']);
    } finally {
      vi.useRealTimers();
    }
  });
});
